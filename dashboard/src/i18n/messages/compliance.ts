import { defineMessages } from '../types.js'

/** The compliance area's text (keys `compliance.…`). */
export default defineMessages({
  en: {},
  de: {},
})
