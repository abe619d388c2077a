import { Type, type Static } from 'typebox'

// The guardrails of a bot, stored as one JSON document and frozen with each version. Every field has a
// default so an older stored document (or an empty one) still reads as a complete configuration.

export const LIMITS = {
  topics: 50,
  keywords: 50,
  terms: 200,
  phrase: 100,
  message: 500,
  languages: 20,
  phoneRegions: 10,
  allowedContacts: 20,
  replyMin: 50,
  replyMax: 10_000,
} as const

export const DEFAULT_BLOCKED_REPLY = "Sorry, I can't help with that. Is there anything else I can do for you?"
export const DEFAULT_FALLBACK_MESSAGE = "I'm not sure about that, so I'm passing your question to a colleague who can help."

const Phrase = (what: string) => Type.String({ minLength: 1, maxLength: LIMITS.phrase, description: `${what}: literal words (no patterns), matched on word boundaries, case- and accent-insensitive.` })

export const BlockedTopic = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: LIMITS.phrase, description: 'Name of the topic, shown in the guardrails a reply lists.' }),
    keywords: Type.Array(Phrase('A keyword or phrase of the topic'), { minItems: 1, maxItems: LIMITS.keywords, description: 'Any of them in a message makes it about the topic.' }),
  },
  { additionalProperties: false, title: 'BotBlockedTopic' },
)

const promptInjectionDescription = 'What a customer message that matches a prompt-injection pattern gets: `block` (refused with blocked_reply), `flag` (answered, listed as flagged) or `off`.'
const PromptInjection = Type.Union([Type.Literal('block'), Type.Literal('flag'), Type.Literal('off')], { description: promptInjectionDescription, default: 'block' })

const LanguageCode = Type.String({ pattern: '^[a-z]{2}$', description: 'ISO 639-1 code the language detector knows (e.g. `en`, `de`).' })
const RegionCode = Type.String({ pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2 region code (e.g. `US`, `DE`).' })

const DEFAULT_PII = { emails: true, phone_numbers: true, card_numbers: true, phone_regions: ['US'], allowed_contacts: [] as string[] }

const piiDescription = {
  emails: 'Mask e-mail addresses in replies as `[email]`.',
  phone_numbers: 'Mask phone numbers in replies as `[phone]`.',
  card_numbers: 'Mask payment card numbers (a known card length and prefix and a valid Luhn check digit) in replies as `[card]`.',
  phone_regions: 'Regions whose national number formats are recognised (international `+…` numbers always are).',
  allowed_contacts:
    "The business's own public contact details, left unmasked in replies: each one phone number (international, or national in one of phone_regions), " +
    'e-mail address or URL (a URL also covers the addresses under it and the numbers and addresses inside them). The same number written another way is still allowed.',
}
const AllowedContact = Type.String({ minLength: 3, maxLength: 200, description: 'One phone number, e-mail address or URL.' })

export const PiiMasking = Type.Object(
  {
    emails: Type.Boolean({ description: piiDescription.emails, default: true }),
    phone_numbers: Type.Boolean({ description: piiDescription.phone_numbers, default: true }),
    card_numbers: Type.Boolean({ description: piiDescription.card_numbers, default: true }),
    phone_regions: Type.Array(RegionCode, { maxItems: LIMITS.phoneRegions, description: piiDescription.phone_regions, default: ['US'] }),
    // Optional: guardrails stored before it read without it (none allowed).
    allowed_contacts: Type.Optional(Type.Array(AllowedContact, { maxItems: LIMITS.allowedContacts, description: piiDescription.allowed_contacts, default: [] })),
  },
  { additionalProperties: false, title: 'BotPiiMasking', description: "Personal data masked in the bot's replies.", default: DEFAULT_PII },
)

const fieldDescription = {
  blocked_topics: 'Topics the bot never discusses: a customer message about one is refused with blocked_reply; a reply about one is replaced by blocked_reply.',
  blocked_terms: 'Words or phrases the bot never discusses or says: a customer message with one is refused; in a reply each occurrence is masked as `[blocked]`.',
  blocked_reply: 'What the bot answers instead when a message is refused (blocked topic or term, prompt injection) or its reply touches a blocked topic.',
  prompt_injection: promptInjectionDescription,
  profanity_filter: 'Mask profanity in replies (`f***`) and flag it in customer messages (English word list with obfuscation handling).',
  max_reply_length: 'Longest reply in characters; a longer one is cut at the last sentence (else word) boundary that fits and ends with `…`.',
  allowed_languages:
    'Languages the bot may answer in (empty: any). A reply detected in another language is replaced by fallback_message and handed off. Only replies of 50 letters or more are judged.',
  answer_only_when_grounded: "When the reply does not rest on the bot's knowledge or a tool result, send fallback_message instead and hand off to a human.",
  fallback_message: 'What the bot says when it does not answer itself (not grounded, or not in an allowed language) and hands the conversation to a human.',
}

export const BotGuardrails = Type.Object(
  {
    blocked_topics: Type.Array(BlockedTopic, { maxItems: LIMITS.topics, description: fieldDescription.blocked_topics, default: [] }),
    blocked_terms: Type.Array(Phrase('A blocked term'), { maxItems: LIMITS.terms, description: fieldDescription.blocked_terms, default: [] }),
    blocked_reply: Type.String({ minLength: 1, maxLength: LIMITS.message, description: fieldDescription.blocked_reply, default: DEFAULT_BLOCKED_REPLY }),
    prompt_injection: PromptInjection,
    profanity_filter: Type.Boolean({ description: fieldDescription.profanity_filter, default: true }),
    pii_masking: PiiMasking,
    max_reply_length: Type.Integer({ minimum: LIMITS.replyMin, maximum: LIMITS.replyMax, description: fieldDescription.max_reply_length, default: 2000 }),
    allowed_languages: Type.Array(LanguageCode, { maxItems: LIMITS.languages, description: fieldDescription.allowed_languages, default: [] }),
    answer_only_when_grounded: Type.Boolean({ description: fieldDescription.answer_only_when_grounded, default: true }),
    fallback_message: Type.String({ minLength: 1, maxLength: LIMITS.message, description: fieldDescription.fallback_message, default: DEFAULT_FALLBACK_MESSAGE }),
  },
  { additionalProperties: false, title: 'BotGuardrails' },
)
export type BotGuardrailsT = Static<typeof BotGuardrails>

export const UpdateBotGuardrailsBody = Type.Object(
  {
    blocked_topics: Type.Optional(Type.Array(BlockedTopic, { maxItems: LIMITS.topics, description: `${fieldDescription.blocked_topics} Replaces the list.` })),
    blocked_terms: Type.Optional(Type.Array(Phrase('A blocked term'), { maxItems: LIMITS.terms, description: `${fieldDescription.blocked_terms} Replaces the list.` })),
    blocked_reply: Type.Optional(Type.String({ minLength: 1, maxLength: LIMITS.message, description: fieldDescription.blocked_reply })),
    prompt_injection: Type.Optional(Type.Union([Type.Literal('block'), Type.Literal('flag'), Type.Literal('off')], { description: promptInjectionDescription })),
    profanity_filter: Type.Optional(Type.Boolean({ description: fieldDescription.profanity_filter })),
    pii_masking: Type.Optional(
      Type.Object(
        {
          emails: Type.Optional(Type.Boolean({ description: piiDescription.emails })),
          phone_numbers: Type.Optional(Type.Boolean({ description: piiDescription.phone_numbers })),
          card_numbers: Type.Optional(Type.Boolean({ description: piiDescription.card_numbers })),
          phone_regions: Type.Optional(Type.Array(RegionCode, { maxItems: LIMITS.phoneRegions, description: piiDescription.phone_regions })),
          allowed_contacts: Type.Optional(Type.Array(AllowedContact, { maxItems: LIMITS.allowedContacts, description: `${piiDescription.allowed_contacts} Replaces the list.` })),
        },
        { additionalProperties: false, title: 'UpdateBotPiiMasking', description: 'Fields sent replace those fields; others are kept.' },
      ),
    ),
    max_reply_length: Type.Optional(Type.Integer({ minimum: LIMITS.replyMin, maximum: LIMITS.replyMax, description: fieldDescription.max_reply_length })),
    allowed_languages: Type.Optional(Type.Array(LanguageCode, { maxItems: LIMITS.languages, description: `${fieldDescription.allowed_languages} Replaces the list.` })),
    answer_only_when_grounded: Type.Optional(Type.Boolean({ description: fieldDescription.answer_only_when_grounded })),
    fallback_message: Type.Optional(Type.String({ minLength: 1, maxLength: LIMITS.message, description: fieldDescription.fallback_message })),
  },
  { additionalProperties: false, title: 'UpdateBotGuardrailsBody' },
)
export type UpdateBotGuardrailsBodyT = Static<typeof UpdateBotGuardrailsBody>

export const DEFAULT_GUARDRAILS: BotGuardrailsT = {
  blocked_topics: [],
  blocked_terms: [],
  blocked_reply: DEFAULT_BLOCKED_REPLY,
  prompt_injection: 'block',
  profanity_filter: true,
  pii_masking: DEFAULT_PII,
  max_reply_length: 2000,
  allowed_languages: [],
  answer_only_when_grounded: true,
  fallback_message: DEFAULT_FALLBACK_MESSAGE,
}
