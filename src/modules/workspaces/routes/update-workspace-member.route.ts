import { defineRoute } from '../../../kernel/http/define-route.js'
import { Member, MemberParams, UpdateMemberBody } from '../workspaces.schemas.js'

export const updateWorkspaceMember = defineRoute({
  operationId: 'updateWorkspaceMember',
  method: 'PATCH',
  url: '/workspaces/{id}/members/{member_id}',
  module: 'workspaces',
  scope: 'write',
  minRole: 'member', // a member may rename themselves; the rest is checked per target in member-roles.ts
  summary: "Change a member's name or role, or mark an invitation accepted",
  description: 'The last owner cannot be demoted (409 `last_owner`).',
  schema: { params: MemberParams, body: UpdateMemberBody, response: { 200: Member } },
  errors: ['resource_not_found', 'last_owner', 'insufficient_role'],
  handler: ({ params, body, principal, services }) => services.workspaces.updateMember(principal, params.id, params.member_id, body),
})
