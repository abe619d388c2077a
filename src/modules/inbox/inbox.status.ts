import { AppError } from '../../kernel/errors.js'
import type { ConversationStatus } from './inbox.tables.js'

/**
 * The conversation state machine. open, pending and snoozed move freely among themselves and may be
 * resolved; a resolved conversation can only be reopened (→ open), explicitly or by an inbound message.
 * Setting the current status again is a no-op.
 */
export const TRANSITIONS: Record<ConversationStatus, ConversationStatus[]> = {
  open: ['pending', 'snoozed', 'resolved'],
  pending: ['open', 'snoozed', 'resolved'],
  snoozed: ['open', 'pending', 'resolved'],
  resolved: ['open'],
}

export function assertTransition(from: ConversationStatus, to: ConversationStatus): void {
  if (from === to || TRANSITIONS[from].includes(to)) return
  throw new AppError(
    'invalid_status_transition',
    `A ${from} conversation cannot become ${to}; from ${from} it can become: ${TRANSITIONS[from].join(', ')}.` + (from === 'resolved' ? ' Reopen it (status open) first.' : ''),
    { current_status: from, requested_status: to, allowed: TRANSITIONS[from] },
  )
}
