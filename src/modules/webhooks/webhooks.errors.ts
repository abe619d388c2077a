import { defineErrors, type ErrorSpec } from '../../kernel/errors.js'

/** The webhooks module's error codes (the kernel keeps only generic ones). */
export const WEBHOOKS_ERRORS = defineErrors('webhooks', {
  // A webhook endpoint URL is not absolute http(s), has credentials, or is http on the live base URL.
  webhook_url_invalid: { status: 422, title: 'Invalid webhook URL' },
  // A webhook endpoint URL resolves to a loopback, private, link-local or metadata address.
  webhook_url_forbidden: { status: 422, title: 'Webhook destination not allowed' },
  // event_types names a type that is not in the event catalog.
  webhook_event_type_unknown: { status: 422, title: 'Unknown event type' },
  // Testing or replaying to an endpoint that is disabled or was deleted.
  webhook_endpoint_unavailable: { status: 409, title: 'Webhook endpoint unavailable' },
  // A Playground token that is not 22–64 characters of [A-Za-z0-9_-].
  playground_token_invalid: { status: 404, title: 'Playground inbox not found' },
})

declare module '../../kernel/errors.js' {
  interface ErrorCodes extends Record<keyof typeof WEBHOOKS_ERRORS, ErrorSpec> {}
}
