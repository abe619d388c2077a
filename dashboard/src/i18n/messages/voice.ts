import { defineMessages } from '../types.js'

/** The voice area's text (keys `voice.…`). */
export default defineMessages({
  en: {},
  de: {},
})
