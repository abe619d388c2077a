import { Type, type Static } from 'typebox'
import { Nullable } from '../../../kernel/http/schemas.js'

// The email channel's settings (part of the Channel resource). Secrets (the relay's password, the
// webhooks' basic-auth password, Mailgun's signing key) are write-only and sealed at rest.

const Address = Type.String({ format: 'email', maxLength: 254, description: 'The address customers write to, e.g. support@example.com.', examples: ['support@example.com'] })
/** A host name or an IP literal, as SMTP takes it (no scheme, no port). */
const Host = Type.String({ pattern: '^[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?$|^\\[?[0-9a-fA-F:.]+\\]?$', maxLength: 253 })

const Relay = Type.Object(
  {
    host: Type.String(),
    port: Type.Integer(),
    secure: Type.Boolean({ description: 'TLS from the first byte (port 465); false: STARTTLS when the relay offers it.' }),
    user: Nullable(Type.String()),
    password_set: Type.Boolean({ description: 'Whether a password is stored (it is never shown).' }),
  },
  { title: 'EmailRelay', description: "The channel's own SMTP relay; null: the service's default relay (EMAIL_RELAY_URL)." },
)

export const EmailSettings = Type.Object(
  {
    address: Type.String({ description: 'The address customers write to.' }),
    from_name: Nullable(Type.String({ description: 'The display name of replies (`From: "<from_name>" <address>`).' })),
    reply_address_example: Type.String({ description: 'Replies carry a per-conversation Reply-To, `<local>+<token>@<domain>`: mail to it lands in that conversation.' }),
    relay: Nullable(Relay),
    inbound: Type.Object(
      {
        smtp: Type.Boolean({ description: "Whether the service's own SMTP listener is on (SMTP_LISTEN_PORT): point the domain's MX (or a forward) at it." }),
        postmark_url: Type.String({ description: "Postmark's inbound webhook URL (basic auth `inbound:<webhook_password>` in the URL, as Postmark documents)." }),
        sendgrid_url: Type.String({ description: 'SendGrid Inbound Parse URL (basic auth `inbound:<webhook_password>` in the URL; raw MIME or parsed both accepted).' }),
        mailgun_url: Type.String({ description: 'Mailgun route `forward()` target; signed with the signing key (HMAC-SHA256 of timestamp + token).' }),
        sendgrid_events_url: Type.String({ description: "SendGrid Event Webhook URL: delivered / bounce / dropped events move the replies' delivery state (needs sendgrid_event_verification_key)." }),
        webhook_password_set: Type.Boolean(),
        mailgun_signing_key_set: Type.Boolean(),
        sendgrid_signed: Type.Boolean({ description: 'Whether Inbound Parse posts must carry SendGrid’s ECDSA signature (a verification key is set); otherwise basic auth.' }),
        sendgrid_events: Type.Boolean({ description: 'Whether the Event Webhook is taken (its verification key is set).' }),
      },
      { title: 'EmailInbound' },
    ),
  },
  { title: 'EmailSettings' },
)
export type EmailSettingsT = Static<typeof EmailSettings>

const RelayInput = Type.Object(
  {
    host: Host,
    port: Type.Optional(Type.Integer({ minimum: 1, maximum: 65535, description: 'Default 587 (465 when secure).' })),
    secure: Type.Optional(Type.Boolean({ description: 'Default: true on port 465.' })),
    user: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 254 }))),
    password: Type.Optional(Type.String({ minLength: 1, maxLength: 256, description: 'Write-only; kept when left out for the same host and user.' })),
  },
  { additionalProperties: false, title: 'EmailRelayInput' },
)

const inputFields = {
  from_name: Nullable(Type.String({ minLength: 1, maxLength: 100, pattern: '^[^\\r\\n]*$' })),
  relay: Nullable(RelayInput),
  webhook_password: Type.String({ minLength: 16, maxLength: 128, pattern: '^[\\x21-\\x7e]+$', description: 'Write-only: the basic-auth password of the Postmark and SendGrid inbound URLs.' }),
  mailgun_signing_key: Type.String({ minLength: 16, maxLength: 128, description: "Write-only: Mailgun's HTTP webhook signing key." }),
  sendgrid_verification_key: Nullable(
    Type.String({
      minLength: 40,
      maxLength: 1000,
      description:
        'The public key of a SendGrid Inbound Parse security policy with signature verification (base64, as SendGrid shows it, or PEM). Set: every Inbound Parse post must be signed; null: basic auth.',
    }),
  ),
  sendgrid_event_verification_key: Nullable(
    Type.String({ minLength: 40, maxLength: 1000, description: "The verification key of SendGrid's Signed Event Webhook (base64 or PEM). null: no delivery events taken." }),
  ),
}

export const EmailInput = Type.Object(
  {
    address: Address,
    from_name: Type.Optional(inputFields.from_name),
    relay: Type.Optional(inputFields.relay),
    webhook_password: Type.Optional(inputFields.webhook_password),
    mailgun_signing_key: Type.Optional(inputFields.mailgun_signing_key),
    sendgrid_verification_key: Type.Optional(inputFields.sendgrid_verification_key),
    sendgrid_event_verification_key: Type.Optional(inputFields.sendgrid_event_verification_key),
  },
  { additionalProperties: false, title: 'EmailInput', description: 'Only for type `email` (required there).' },
)
export type EmailInputT = Static<typeof EmailInput>

export const EmailUpdate = Type.Partial(Type.Object({ address: Address, ...inputFields }), { additionalProperties: false, title: 'EmailUpdate' })
export type EmailUpdateT = Static<typeof EmailUpdate>
