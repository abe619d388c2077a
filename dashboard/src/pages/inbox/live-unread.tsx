import { Badge } from '../../ui/components.js'
import type { LiveConversation } from './live-list.js'
import { t } from '../../i18n/index.js'

/** "3 unread": customer messages this member has not seen in the conversation (its unread_count); nothing when none. */
export function UnreadBadge({ c }: { c: LiveConversation }) {
  const n = c.unread_count ?? 0
  if (n <= 0) return null
  return (
    <span class="unread">
      {' '}
      <Badge tone="info">{t('inbox.live.unread', { count: n })}</Badge>
    </span>
  )
}
