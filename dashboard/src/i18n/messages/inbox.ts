import { defineMessages } from '../types.js'
import live from './inbox/live.js'
import work from './inbox/work.js'

/** The inbox's text (keys `inbox.…`), owned by the inbox pages (dashboard/src/pages/inbox/). */
export default defineMessages({
  en: {
    'inbox.title': 'Inbox',
    ...work.en,
    ...live.en,
  },
  de: {
    'inbox.title': 'Posteingang',
    ...work.de,
    ...live.de,
  },
})
