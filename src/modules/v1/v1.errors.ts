import { defineErrors, type ErrorSpec } from '../../kernel/errors.js'

/** The v1 compatibility layer's error codes. */
export const V1_ERRORS = defineErrors('v1', {
  // Any /api/v1 endpoint after V1_SUNSET: version 1 is gone; docs/migration-v1.md says what replaces each endpoint.
  v1_sunset: { status: 410, title: 'API version 1 is no longer available' },
  // GET /api/v1/chats past MAX_V1_OFFSET: deep pages are read with v2's cursor pagination.
  v1_offset_too_deep: { status: 400, title: 'Offset too deep' },
})

declare module '../../kernel/errors.js' {
  interface ErrorCodes extends Record<keyof typeof V1_ERRORS, ErrorSpec> {}
}
