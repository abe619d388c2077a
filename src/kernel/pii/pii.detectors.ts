import cardValidator from 'card-validator'
import { isValidIBAN } from 'ibantools'
import ipaddr from 'ipaddr.js'
import * as linkify from 'linkifyjs'
import type { PiiType } from './pii.js'

// The detectors whose findings do not depend on a region. Each returns candidates that may overlap those of
// another detector; pii.ts resolves them. The rules are in the table of pii.ts.

export interface Span {
  type: PiiType
  start: number
  end: number
}

const SCHEME = /^[a-z][a-z0-9+.-]*:/i
// After the host: a port, a path, a query or a fragment.
const HOST_AND_MORE = /^[^/?#:]+[/?#:]/
const MAILTO = 'mailto:'

/** E-mail addresses and URLs, from one linkify scan. */
export function linkSpans(text: string): Span[] {
  if (!text.includes('.')) return []
  const out: Span[] = []
  for (const link of linkify.find(text)) {
    if (link.type === 'email') out.push({ type: 'email', start: link.start, end: link.end })
    else if (link.type !== 'url') continue
    else if (link.value.toLowerCase().startsWith(MAILTO)) {
      // The address of a mailto link; a "?subject=…" after it is not part of it.
      const address = link.value.slice(MAILTO.length).split('?')[0]
      if (address.includes('@')) out.push({ type: 'email', start: link.start + MAILTO.length, end: link.start + MAILTO.length + address.length })
    } else if (SCHEME.test(link.value) || /^www\./i.test(link.value) || HOST_AND_MORE.test(link.value)) {
      out.push({ type: 'url', start: link.start, end: link.end })
    }
  }
  return out
}

const CARD_CANDIDATE = /(?<![\d-])\d(?:[ -]?\d){12,18}(?!\d)/g

export function cardSpans(text: string): Span[] {
  const out: Span[] = []
  for (const m of text.matchAll(CARD_CANDIDATE)) {
    const digits = m[0].replace(/\D/g, '')
    if (cardValidator.number(digits, { maxLength: 19, luhnValidateUnionPay: true }).isValid) out.push({ type: 'card_number', start: m.index!, end: m.index! + m[0].length })
  }
  return out
}

// Greedy: the run may take a following upper-case word ("… 0130 00 EUR"), so shorter prefixes are tried too.
const IBAN_CANDIDATE = /(?<![\p{L}\p{N}])[A-Z]{2}\d{2}(?: ?[A-Z0-9]){11,30}(?![\p{L}\p{N}])/giu

export function ibanSpans(text: string): Span[] {
  const out: Span[] = []
  const re = new RegExp(IBAN_CANDIDATE)
  for (let m = re.exec(text); m; m = re.exec(text)) {
    let found = 0
    for (let end = m[0].length; end > 0 && !found; end = m[0].lastIndexOf(' ', end - 1)) {
      if (isValidIBAN(m[0].slice(0, end).replace(/ /g, '').toUpperCase())) found = end
    }
    if (found) out.push({ type: 'iban', start: m.index, end: m.index + found })
    // What the run took beyond the IBAN (or beyond its first word) may start another one.
    re.lastIndex = m.index + (found || 1)
  }
  return out
}

const IPV4_CANDIDATE = /(?<![\w.])(?:\d{1,3}\.){3}\d{1,3}(?!\w|\.\d)/g
// Hex digits and colons (and a dotted IPv4 tail); at least two colons, so times ("10:30") are not looked at.
const IPV6_CANDIDATE = /(?<![\w:.])[0-9a-f]*:[0-9a-f]*:[0-9a-f:.]*(?![\w:])/gi

const isIpv6 = (s: string) => /[0-9a-f]/i.test(s) && ipaddr.IPv6.isValid(s)

export function ipSpans(text: string): Span[] {
  const out: Span[] = []
  if (text.includes('.')) {
    for (const m of text.matchAll(IPV4_CANDIDATE)) {
      if (ipaddr.IPv4.isValidFourPartDecimal(m[0])) out.push({ type: 'ip_address', start: m.index!, end: m.index! + m[0].length })
    }
  }
  if (text.includes(':')) {
    for (const m of text.matchAll(IPV6_CANDIDATE)) {
      // A sentence may end right after the address ("… at fe80::1."), and "fe80::" itself ends in colons.
      let candidate = m[0]
      while (!isIpv6(candidate) && /[.:]$/.test(candidate)) candidate = candidate.slice(0, -1)
      if (isIpv6(candidate)) out.push({ type: 'ip_address', start: m.index!, end: m.index! + candidate.length })
    }
  }
  return out
}

const SSN_CANDIDATE = /(?<![\w-])(\d{3})([- ])(\d{2})\2(\d{4})(?!\w|-\d)/g

/** The Social Security Administration never issues these (area 000, 666, 900–999; group 00; serial 0000). */
export const isIssuableSsn = (area: string, group: string, serial: string): boolean => area !== '000' && area !== '666' && area[0] !== '9' && group !== '00' && serial !== '0000'

export function ssnSpans(text: string): Span[] {
  const out: Span[] = []
  for (const m of text.matchAll(SSN_CANDIDATE)) {
    if (isIssuableSsn(m[1], m[3], m[4])) out.push({ type: 'ssn_us', start: m.index!, end: m.index! + m[0].length })
  }
  return out
}
