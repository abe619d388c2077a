import { defineRoute } from '../../../kernel/http/define-route.js'
import { UpdateWorkspaceBody, Workspace, WorkspaceIdParams } from '../workspaces.schemas.js'

export const updateWorkspace = defineRoute({
  operationId: 'updateWorkspace',
  method: 'PATCH',
  url: '/workspaces/{id}',
  module: 'workspaces',
  scope: 'write',
  summary: 'Update the workspace name, time zone, language, metadata or settings',
  description:
    'Any subset of the fields. `crm` (the CRM leads sync to, docs/leads.md) and `lead_auto_create_score` are per mode: a test key ' +
    'sets the sandbox ones. CRM secrets are sealed at rest and never shown; left out, they are kept while the provider stays.',
  schema: { params: WorkspaceIdParams, body: UpdateWorkspaceBody, response: { 200: Workspace } },
  errors: ['resource_not_found', 'insufficient_role'],
  handler: ({ params, body, principal, services }) => services.workspaces.update(principal, params.id, body),
})
