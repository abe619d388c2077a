import { defineMessages } from '../types.js'

/** The leads area's text (keys `leads.…`). */
export default defineMessages({
  en: {},
  de: {},
})
