import { defineRoute } from '../../../kernel/http/define-route.js'
import { Member, MemberParams } from '../workspaces.schemas.js'

export const removeWorkspaceMember = defineRoute({
  operationId: 'removeWorkspaceMember',
  method: 'DELETE',
  url: '/workspaces/{id}/members/{member_id}',
  module: 'workspaces',
  scope: 'write',
  summary: 'Remove a member',
  description: 'Returns the removed member. The last owner cannot be removed (409 `last_owner`).',
  schema: { params: MemberParams, response: { 200: Member } },
  errors: ['resource_not_found', 'last_owner', 'insufficient_role'],
  handler: ({ params, principal, services }) => services.workspaces.removeMember(principal, params.id, params.member_id),
})
