import { defineRoute } from '../../../../kernel/http/define-route.js'
import { CreatedSandboxWorkspace, CreateSandboxWorkspaceBody } from '../sandbox.schemas.js'

export const createSandboxWorkspace = defineRoute({
  operationId: 'createSandboxWorkspace',
  method: 'POST',
  url: '/sandbox-workspaces',
  module: 'developer',
  scope: 'write',
  summary: 'Create a sandbox workspace',
  description:
    'Creates a new workspace for testing and seeds its sandbox (test mode) with sample data: conversations with messages and tags, a knowledge base with documents, ' +
    'a published bot answering from it, an agent, leads, and a webhook endpoint delivering to the Webhook Playground (`playground_url`). ' +
    '202 with `status` seeding; ready within seconds (event `sandbox_workspace.ready`). `test_key` is the sandbox’s svc_test_ key with your key’s scopes, ' +
    'for `base_url`: it is shown only in this response. Needs a live key; at most 20 per workspace.',
  schema: { body: CreateSandboxWorkspaceBody, response: { 202: CreatedSandboxWorkspace } },
  errors: ['sandbox_requires_live_key', 'sandbox_limit_reached'],
  handler: ({ body, principal, services }) => services.developerSandbox.create(principal, body),
})
