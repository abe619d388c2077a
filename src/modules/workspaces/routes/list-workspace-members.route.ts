import { Type } from 'typebox'
import { defineRoute } from '../../../kernel/http/define-route.js'
import { Page, PageQuery } from '../../../kernel/http/pagination.js'
import { Member, WorkspaceIdParams } from '../workspaces.schemas.js'

export const listWorkspaceMembers = defineRoute({
  operationId: 'listWorkspaceMembers',
  method: 'GET',
  url: '/workspaces/{id}/members',
  module: 'workspaces',
  scope: 'read',
  summary: 'List the members of a workspace, newest first',
  schema: {
    params: WorkspaceIdParams,
    querystring: Type.Object({ ...PageQuery }, { additionalProperties: false }),
    response: { 200: Page(Member, 'WorkspaceMember') },
  },
  errors: ['resource_not_found', 'invalid_cursor'],
  handler: ({ params, query, principal, services }) => services.workspaces.listMembers(principal, params.id, query),
})
