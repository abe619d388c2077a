// TwiML (Twilio's call instructions) built from parts that escape everything they are given. A part is a
// branded string, so text can reach `response()` only through a builder, never raw.

declare const twimlBrand: unique symbol
/** A TwiML fragment (one verb) or document, already escaped. */
export type Twiml = string & { readonly [twimlBrand]: true }

// Characters XML 1.0 does not allow at all, escaped or not: Twilio refuses the whole document over one.
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu

export function xmlText(s: string): string {
  return s.replace(NOT_XML, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}

export function xmlAttr(s: string): string {
  return xmlText(s).replace(/"/g, '&quot;').replace(/'/g, '&apos;')
}

const part = (xml: string) => xml as Twiml

function element(name: string, attrs: Record<string, string | number | boolean | null | undefined>, children: string): Twiml {
  const a = Object.entries(attrs)
    .filter(([, v]) => v !== undefined && v !== null)
    .map(([k, v]) => ` ${k}="${xmlAttr(String(v))}"`)
    .join('')
  return part(children === '' ? `<${name}${a}/>` : `<${name}${a}>${children}</${name}>`)
}

/** Speaks `text` (Twilio's text-to-speech); `language` as Twilio names them, e.g. en-US. */
export function say(text: string, opts: { voice?: string; language?: string } = {}): Twiml {
  return element('Say', { voice: opts.voice, language: opts.language }, xmlText(text))
}

/** Connects the caller to `number` (a transfer); `callerId` must be a number of the account. */
export function dial(number: string, opts: { callerId?: string; timeout?: number; action?: string } = {}): Twiml {
  return element('Dial', { callerId: opts.callerId, timeout: opts.timeout, action: opts.action, method: opts.action ? 'POST' : undefined }, xmlText(number))
}

export interface GatherOptions {
  /** Where Twilio POSTs what was heard (SpeechResult, Confidence). */
  action: string
  input?: 'speech' | 'dtmf' | 'dtmf speech'
  /** Seconds of silence that end the speech, or 'auto' (Twilio decides). */
  speechTimeout?: 'auto' | number
  /** Seconds to wait for the caller to start. */
  timeout?: number
  language?: string
  /** Also POST to `action` when nothing was heard (otherwise Twilio goes on with the next verb). */
  actionOnEmptyResult?: boolean
}

/** Listens for the caller; `children` (usually a `say`) are spoken while listening. */
export function gather(opts: GatherOptions, ...children: Twiml[]): Twiml {
  return element(
    'Gather',
    {
      input: opts.input ?? 'speech',
      action: opts.action,
      method: 'POST',
      speechTimeout: opts.speechTimeout ?? 'auto',
      timeout: opts.timeout,
      language: opts.language,
      actionOnEmptyResult: opts.actionOnEmptyResult,
    },
    children.join(''),
  )
}

/** Fetches the next instructions from `url` (POST). */
export function redirect(url: string): Twiml {
  return element('Redirect', { method: 'POST' }, xmlText(url))
}

export function hangup(): Twiml {
  return element('Hangup', {}, '')
}

/** The document Twilio executes. */
export function response(...parts: Twiml[]): Twiml {
  return part(`<?xml version="1.0" encoding="UTF-8"?><Response>${parts.join('')}</Response>`)
}
