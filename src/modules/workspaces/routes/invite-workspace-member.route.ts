import { defineRoute } from '../../../kernel/http/define-route.js'
import { InviteMemberBody, Member, WorkspaceIdParams } from '../workspaces.schemas.js'

export const inviteWorkspaceMember = defineRoute({
  operationId: 'inviteWorkspaceMember',
  method: 'POST',
  url: '/workspaces/{id}/members',
  module: 'workspaces',
  scope: 'write',
  summary: 'Invite a member by email',
  description: 'Creates the member with status `invited` and an `invitation_url`; role defaults to `member`.',
  schema: { params: WorkspaceIdParams, body: InviteMemberBody, response: { 201: Member } },
  errors: ['resource_not_found', 'member_already_exists', 'insufficient_role'],
  handler: ({ params, body, principal, services }) => services.workspaces.invite(principal, params.id, body),
})
