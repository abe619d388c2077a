import { parsePhoneNumberFromString } from 'libphonenumber-js/max'
import { AppError } from '../../kernel/errors.js'
import type { Kernel } from '../../kernel/kernel.js'
import type { DataSubject } from '../../kernel/module.js'
import type { Tenant } from '../../kernel/tenant.js'

export const apiBase = (k: Kernel, tenant: Tenant) => `${k.config.publicUrl}${tenant.mode === 'live' ? '/v2' : '/sandbox/v2'}`

/** A subject from request input: at least one identifier (422), the email lower-cased, the phone as E.164 (422 if invalid). */
export function subjectOf(input: { email?: string; phone?: string; external_id?: string }, pointer = '/body/subject'): DataSubject {
  const email = input.email?.trim().toLowerCase() || null
  const external = input.external_id?.trim() || null
  let phone: string | null = null
  if (input.phone?.trim()) {
    const parsed = parsePhoneNumberFromString(input.phone.trim())
    if (!input.phone.trim().startsWith('+') || !parsed?.isValid()) {
      throw new AppError('validation_failed', `'${input.phone}' is not a valid international phone number (E.164, e.g. +14155550123).`, {
        errors: [{ pointer: `${pointer}/phone`, detail: 'must be a valid E.164 number' }],
      })
    }
    phone = parsed.number
  }
  if (!email && !phone && !external) {
    throw new AppError('validation_failed', 'Identify the data subject by at least one of email, phone and external_id.', { errors: [{ pointer, detail: 'at least one identifier' }] })
  }
  return { email, phone, external_id: external }
}

/**
 * A subject as the request keeps it once it is erased, and as events show it: enough for a person to
 * recognise (`a***@example.com`, `+*******0123`), not enough to find the subject by.
 */
export function maskSubject(s: DataSubject): DataSubject {
  const email = s.email ? `${s.email[0]}***@${s.email.split('@')[1] ?? ''}` : null
  const phone = s.phone ? `+${'*'.repeat(Math.max(0, s.phone.length - 5))}${s.phone.slice(-4)}` : null
  const external = s.external_id ? `${s.external_id.slice(0, 2)}***` : null
  return { email, phone, external_id: external }
}
