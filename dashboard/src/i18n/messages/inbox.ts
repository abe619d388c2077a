import { defineMessages } from '../types.js'

/** The inbox's text (keys `inbox.…`), owned by the inbox pages (dashboard/src/pages/inbox/). */
export default defineMessages({
  en: {
    'inbox.title': 'Inbox',
  },
  de: {
    'inbox.title': 'Posteingang',
  },
})
