import { defineErrors, type ErrorSpec } from '../../kernel/errors.js'

/** The inbox module's error codes (the kernel keeps only generic ones). */
export const INBOX_ERRORS = defineErrors('inbox', {
  // A status change the conversation state machine forbids (e.g. resolved → snoozed without reopening).
  invalid_status_transition: { status: 409, title: 'Invalid status transition' },
  // assignConversation (or a member-authored message) names someone who is not an active member of the workspace.
  assignee_not_member: { status: 422, title: 'Not an active member' },
  // A conversation is given a tag name that was never created with createInboxTag.
  unknown_tag: { status: 422, title: 'Unknown tag' },
  // createInboxTag with a name the workspace already has (case-insensitively).
  tag_already_exists: { status: 409, title: 'Tag already exists' },
  // createReplyTemplate with a name (case-insensitively) or shortcut the workspace already has.
  template_already_exists: { status: 409, title: 'Reply template already exists' },
  // sendMessage whose direction, author and private flag disagree (inbound comes from the contact; notes are outbound).
  invalid_message_author: { status: 422, title: 'Invalid message author' },
  // assignee=me, unread=true, markConversationRead or getInboxCounts with an API key: read state and "me" belong to a member (a dashboard session).
  member_credential_required: { status: 422, title: 'Member credential required' },
})

declare module '../../kernel/errors.js' {
  interface ErrorCodes extends Record<keyof typeof INBOX_ERRORS, ErrorSpec> {}
}
