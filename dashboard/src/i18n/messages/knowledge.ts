import { defineMessages } from '../types.js'

/** The knowledge area's text (keys `knowledge.…`). */
export default defineMessages({
  en: {},
  de: {},
})
