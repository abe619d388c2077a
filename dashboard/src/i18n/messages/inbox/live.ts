import { defineMessages } from '../../types.js'

/**
 * The live inbox (the event stream's side: unread, notifications, the thread's newest-first loading, one's
 * own reply while it is sent, presence): part of the inbox catalogue (../inbox.ts spreads it in).
 */
export default defineMessages({
  en: {
    'inbox.live.notify': 'Notify me about conversations assigned to me',
    'inbox.live.notifyBlocked': 'The browser blocks notifications for this site: allow them in its site settings.',
    'inbox.live.assignedToYou': 'Assigned to you: {name}',
    'inbox.live.newMessage': 'New message from {name}',
    'inbox.live.unread': { one: '{count} unread', other: '{count} unread' },
    'inbox.live.someone': 'Someone',
    'inbox.live.typing': { one: '{names} is typing…', other: '{names} are typing…' },
    'inbox.live.viewing': { one: '{names} is viewing', other: '{names} are viewing' },
    'inbox.live.collision': {
      one: '{names} is also replying in this conversation: check before you send, so the customer does not get two answers.',
      other: '{names} are also replying in this conversation: check before you send, so the customer does not get two answers.',
    },
    'inbox.live.history': 'Message history',
    'inbox.live.loadingMessages': 'Loading messages…',
    'inbox.live.noMessages': 'No messages yet',
    'inbox.live.loading': 'Loading…',
    'inbox.live.earlier': 'Load earlier messages',
    'inbox.live.sending': 'Sending…',
  },
  de: {
    'inbox.live.notify': 'Benachrichtigen, wenn mir eine Konversation zugewiesen wird',
    'inbox.live.notifyBlocked': 'Der Browser blockiert Benachrichtigungen für diese Website: Erlauben Sie sie in den Website-Einstellungen.',
    'inbox.live.assignedToYou': 'Ihnen zugewiesen: {name}',
    'inbox.live.newMessage': 'Neue Nachricht von {name}',
    'inbox.live.unread': { one: '{count} ungelesen', other: '{count} ungelesen' },
    'inbox.live.someone': 'Jemand',
    'inbox.live.typing': { one: '{names} schreibt…', other: '{names} schreiben…' },
    'inbox.live.viewing': { one: '{names} sieht sich das an', other: '{names} sehen sich das an' },
    'inbox.live.collision': {
      one: '{names} antwortet ebenfalls in dieser Konversation: Prüfen Sie vor dem Senden, damit der Kunde nicht zwei Antworten bekommt.',
      other: '{names} antworten ebenfalls in dieser Konversation: Prüfen Sie vor dem Senden, damit der Kunde nicht zwei Antworten bekommt.',
    },
    'inbox.live.history': 'Nachrichtenverlauf',
    'inbox.live.loadingMessages': 'Nachrichten werden geladen…',
    'inbox.live.noMessages': 'Noch keine Nachrichten',
    'inbox.live.loading': 'Wird geladen…',
    'inbox.live.earlier': 'Frühere Nachrichten laden',
    'inbox.live.sending': 'Wird gesendet…',
  },
})
