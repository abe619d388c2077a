/**
 * The dashboard's text in English and German (issue 31): `t(key, vars)` reads the message of the chosen
 * language from the catalogues under ./messages/ (one per area, `{ en, de }` with the same keys), with
 * `{name}` placeholders and plural forms chosen by Intl.PluralRules from `vars.count`. Hand-written rather
 * than a library: see docs/architecture.md "The dashboard" (messages in a plain typed object, ~2 KB).
 *
 * The shell's catalogue is loaded with the app; each area's catalogue comes with the area's chunk
 * (pages/areas.ts loads both), so German text costs an English visitor only the areas he opens.
 */
import type { ComponentChildren } from 'preact'
import type { Catalogue, Message } from './types.js'
import shell from './messages/shell.js'

export type { Catalogue, Message, Messages } from './types.js'

export type Locale = 'en' | 'de'
export const LOCALES: readonly Locale[] = ['en', 'de']
/** The language chosen in Settings (absent: follow the browser). */
export const LOCALE_KEY = 'svc.locale'

const tables: Record<Locale, Record<string, Message>> = { en: {}, de: {} }

/** Makes a catalogue's messages available to `t` (pages/areas.ts, as an area's chunk is loaded). */
export function register<C extends Catalogue>(catalogue: C): C {
  Object.assign(tables.en, catalogue.en)
  Object.assign(tables.de, catalogue.de)
  return catalogue
}
register(shell)

const stored = (): string | null => {
  try {
    return localStorage.getItem(LOCALE_KEY)
  } catch {
    return null
  }
}
const isLocale = (x: unknown): x is Locale => x === 'en' || x === 'de'
const browserLanguages = (): readonly string[] => (typeof navigator === 'undefined' ? [] : navigator.languages?.length ? navigator.languages : [navigator.language ?? 'en'])

/** The language the browser asks for first among ours: a German browser gets German, every other English. */
function fromBrowser(): Locale {
  for (const tag of browserLanguages()) {
    const primary = tag.toLowerCase().split('-')[0]
    if (isLocale(primary)) return primary
  }
  return 'en'
}

let current: Locale = (() => {
  const s = stored()
  return isLocale(s) ? s : fromBrowser()
})()
const listeners = new Set<(l: Locale) => void>()

/** The language the dashboard speaks now. */
export const locale = (): Locale => current
/** The language chosen in Settings, or null when the dashboard follows the browser. */
export const chosenLocale = (): Locale | null => {
  const s = stored()
  return isLocale(s) ? s : null
}

/**
 * Chooses the language (null: follow the browser again), keeps the choice in this browser, sets
 * `<html lang>` and tells the subscribers (the app re-renders its tree).
 */
export function setLocale(next: Locale | null): void {
  try {
    if (next) localStorage.setItem(LOCALE_KEY, next)
    else localStorage.removeItem(LOCALE_KEY)
  } catch {
    // Storage refused (a private window): the choice lasts for this page only.
  }
  current = next ?? fromBrowser()
  rememberForSignIn(next)
  applyDocumentLanguage()
  for (const fn of listeners) fn(current)
}

/** The server-rendered sign-in pages read the choice from a cookie (they have no localStorage); no choice, no cookie. */
function rememberForSignIn(choice: Locale | null): void {
  if (typeof document === 'undefined') return
  document.cookie = choice ? `svc_locale=${choice}; Path=/; Max-Age=31536000; SameSite=Lax` : 'svc_locale=; Path=/; Max-Age=0; SameSite=Lax'
}
rememberForSignIn(chosenLocale())

/** Called when the language changes; returns the unsubscribe. */
export function onLocaleChange(fn: (l: Locale) => void): () => void {
  listeners.add(fn)
  return () => listeners.delete(fn)
}

export function applyDocumentLanguage(): void {
  if (typeof document !== 'undefined') document.documentElement.lang = current
}

/**
 * The BCP 47 tag dates and numbers are formatted with: the browser's own when it is of the chosen
 * language (en-GB keeps day-month order, de-AT its months), else the chosen language itself.
 */
export function formatLocale(): string {
  const own = browserLanguages().find((tag) => tag.toLowerCase().split('-')[0] === current)
  return own ?? current
}

const pluralRules = new Map<string, Intl.PluralRules>()
function pluralOf(count: number): Intl.LDMLPluralRule {
  let rules = pluralRules.get(current)
  if (!rules) pluralRules.set(current, (rules = new Intl.PluralRules(current)))
  return rules.select(count)
}

export type Vars = Record<string, string | number | null | undefined>

/** Fills `{name}` placeholders (numbers formatted for the locale); an unknown placeholder stays as written. */
export function interpolate(text: string, vars?: Vars): string {
  if (!vars) return text
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const v = vars[name]
    if (v === undefined || v === null) return whole
    return typeof v === 'number' ? formatNumber(v) : v
  })
}

/** Resolves a message: plain text, or the plural form `vars.count` selects (falling back to `other`). */
export function resolve(message: Message, vars?: Vars): string {
  if (typeof message === 'string') return interpolate(message, vars)
  const count = Number(vars?.count ?? 0)
  const form = count === 0 && message.zero !== undefined ? 'zero' : pluralOf(count)
  return interpolate(message[form] ?? message.other, vars)
}

/**
 * The text of `key` in the current language (English when a German message is missing, the key itself
 * when neither has it — visible, and the catalogue test catches it first).
 */
export function t(key: MessageKey, vars?: Vars): string {
  const message = tables[current][key] ?? tables.en[key]
  return message === undefined ? key : resolve(message, vars)
}

/**
 * An API status value (`in_progress`, `published`, …) as words of the current language; a value without a
 * `status.` message reads as itself with spaces for underscores.
 */
export function statusLabel(value: string): string {
  const message = tables[current][`status.${value}`] ?? tables.en[`status.${value}`]
  return message === undefined ? value.replace(/_/g, ' ') : resolve(message)
}

/** A date and time (ISO string, epoch ms or Date) in the chosen language; '—' when there is none. */
export function formatDate(value: string | number | Date | null | undefined, options?: Intl.DateTimeFormatOptions): string {
  if (value === null || value === undefined || value === '') return '—'
  const d = value instanceof Date ? value : new Date(value)
  if (Number.isNaN(d.getTime())) return String(value)
  return d.toLocaleString(formatLocale(), options)
}

export function formatNumber(value: number, options?: Intl.NumberFormatOptions): string {
  return value.toLocaleString(formatLocale(), options)
}

// Every key of every catalogue (types only: nothing here pulls an area's catalogue into the shell's bundle).
type KeysOf<C> = C extends { en: infer E } ? keyof E & string : never
export type MessageKey =
  | KeysOf<typeof shell>
  | KeysOf<typeof import('./messages/inbox.js').default>
  | KeysOf<typeof import('./messages/bots.js').default>
  | KeysOf<typeof import('./messages/knowledge.js').default>
  | KeysOf<typeof import('./messages/agents.js').default>
  | KeysOf<typeof import('./messages/leads.js').default>
  | KeysOf<typeof import('./messages/voice.js').default>
  | KeysOf<typeof import('./messages/channels.js').default>
  | KeysOf<typeof import('./messages/compliance.js').default>
  | KeysOf<typeof import('./messages/developers.js').default>
  | KeysOf<typeof import('./messages/settings.js').default>

/**
 * A message with elements in it (a <strong> name, a <code> value): `{name}` placeholders named in `parts`
 * become those elements, in the order the language puts them; other placeholders are filled from `vars`.
 */
export function tx(key: MessageKey, parts: Record<string, ComponentChildren>, vars?: Vars): ComponentChildren[] {
  return t(key, vars)
    .split(/\{(\w+)\}/)
    .map((segment, i) => (i % 2 === 0 ? segment : segment in parts ? parts[segment] : `{${segment}}`))
}
