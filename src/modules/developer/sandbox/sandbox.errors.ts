import { defineErrors, type ErrorSpec } from '../../../kernel/errors.js'

/** The sandbox workspaces' error codes (part of the developer module). */
export const SANDBOX_ERRORS = defineErrors('developer', {
  // createSandboxWorkspace with a test key, or from a sandbox workspace: only a live key of a real workspace makes one.
  sandbox_requires_live_key: { status: 403, title: 'Sandbox workspaces need a live key' },
  // The workspace already has SANDBOX_LIMIT sandbox workspaces.
  sandbox_limit_reached: { status: 409, title: 'Sandbox workspace limit reached' },
})

declare module '../../../kernel/errors.js' {
  interface ErrorCodes extends Record<keyof typeof SANDBOX_ERRORS, ErrorSpec> {}
}
