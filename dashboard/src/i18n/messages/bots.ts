import { defineMessages } from '../types.js'

/** The bots area's text (keys `bots.…`). */
export default defineMessages({
  en: {},
  de: {},
})
