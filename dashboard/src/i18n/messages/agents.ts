import { defineMessages } from '../types.js'

/** The agents area's text (keys `agents.…`). */
export default defineMessages({
  en: {},
  de: {},
})
