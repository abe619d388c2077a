import { defineErrors, type ErrorSpec } from '../../kernel/errors.js'

/** The agents module's error codes (the kernel keeps only generic ones). */
export const AGENTS_ERRORS = defineErrors('agents', {
  // createAgentRun / dry-run on a disabled agent.
  agent_disabled: { status: 409, title: 'Agent disabled' },
  // A transition the run state machine does not allow (docs/agents.md).
  invalid_run_transition: { status: 409, title: 'Invalid run transition' },
  // approveAgentRun on a run that is not waiting for approval, or an approval decided a moment earlier.
  approval_not_pending: { status: 409, title: 'Approval not pending' },
  // A JSON input that does not match the agent's input_schema.
  invalid_agent_input: { status: 422, title: 'Invalid agent input' },
  // A tool list that names the same tool twice, or an approval condition on an argument the tool does not take.
  invalid_agent_tools: { status: 422, title: 'Invalid agent tools' },
})

declare module '../../kernel/errors.js' {
  interface ErrorCodes extends Record<keyof typeof AGENTS_ERRORS, ErrorSpec> {}
}
