/** A message: plain text with `{name}` placeholders, or plural forms chosen by Intl.PluralRules from `count`. */
export type Message = string | { zero?: string; one?: string; two?: string; few?: string; many?: string; other: string }
export type Messages = Record<string, Message>
/** One area's messages in every language, with the same keys (dashboard/i18n.test.ts checks it). */
export interface Catalogue {
  en: Messages
  de: Messages
}

/**
 * Declares a catalogue: German must have exactly English's keys (a type error otherwise), and the keys
 * stay literal so `t` only accepts keys that exist.
 */
export function defineMessages<const E extends Messages>(catalogue: { en: E; de: { [K in keyof E]: Message } }): { en: E; de: { [K in keyof E]: Message } } {
  return catalogue
}
