import { defineMessages } from '../types.js'

/** The settings area's text (keys `settings.…`). */
export default defineMessages({
  en: {},
  de: {},
})
