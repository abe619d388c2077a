import { defineMessages } from '../types.js'

/** The developers area's text (keys `developers.…`). */
export default defineMessages({
  en: {},
  de: {},
})
