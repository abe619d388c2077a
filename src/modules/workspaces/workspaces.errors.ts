import { defineErrors, type ErrorSpec } from '../../kernel/errors.js'

/** The workspaces module's error codes (the kernel keeps only generic ones). */
export const WORKSPACES_ERRORS = defineErrors('workspaces', {
  // inviteWorkspaceMember for an email that is already a member of the workspace.
  member_already_exists: { status: 409, title: 'Member already exists' },
  // Removing or demoting the only remaining owner.
  last_owner: { status: 409, title: 'Last owner' },
})

declare module '../../kernel/errors.js' {
  interface ErrorCodes extends Record<keyof typeof WORKSPACES_ERRORS, ErrorSpec> {}
}
