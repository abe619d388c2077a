import type { Executor } from '../../kernel/db/database.js'
import { scoped } from '../../kernel/db/scoped.js'
import type { Tenant } from '../../kernel/tenant.js'
import './voice.tables.js'
import type { ListVoiceCallsQueryT } from './voice.schemas.js'
import type { Carrier, VoiceCallsTable, VoiceNumbersTable } from './voice.tables.js'

// The only SQL of the voice module. Every function takes the tenant first (carrier callbacks, which
// arrive without one, find it with `findCallBySid` / `findNumberByE164`).

type Page = { after: string | null; limit: number }

export async function insertNumber(db: Executor, row: VoiceNumbersTable): Promise<void> {
  await db.insertInto('voice_numbers').values(row).execute()
}

export function findNumber(db: Executor, tenant: Tenant, id: string): Promise<VoiceNumbersTable | undefined> {
  return scoped(db, tenant).selectFrom('voice_numbers').selectAll().where('id', '=', id).executeTakeFirst()
}

export function listNumbers(db: Executor, tenant: Tenant, q: { country?: string }, page: Page): Promise<VoiceNumbersTable[]> {
  let s = scoped(db, tenant).selectFrom('voice_numbers').selectAll()
  if (q.country) s = s.where('country', '=', q.country)
  if (page.after) s = s.where('id', '<', page.after)
  return s
    .orderBy('id', 'desc')
    .limit(page.limit + 1)
    .execute()
}

export async function updateNumber(
  db: Executor,
  tenant: Tenant,
  id: string,
  patch: Partial<Pick<VoiceNumbersTable, 'friendly_name' | 'answer_type' | 'answer_id' | 'greeting' | 'updated_at'>>,
): Promise<void> {
  await scoped(db, tenant).updateTable('voice_numbers').set(patch).where('id', '=', id).execute()
}

export async function deleteNumber(db: Executor, tenant: Tenant, id: string): Promise<void> {
  await scoped(db, tenant).deleteFrom('voice_numbers').where('id', '=', id).execute()
}

/** Whether a call from or to the number is still queued, ringing or in progress. */
export async function hasLiveCall(db: Executor, tenant: Tenant, numberId: string): Promise<boolean> {
  const row = await scoped(db, tenant).selectFrom('voice_calls').select('id').where('number_id', '=', numberId).where('status', 'in', ['queued', 'ringing', 'in_progress']).limit(1).executeTakeFirst()
  return row !== undefined
}

/** Numbers of a carrier and mode already taken in a range (any workspace): the simulated carrier skips them. */
export async function takenNumbers(db: Executor, carrier: Carrier, mode: Tenant['mode'], prefix: string): Promise<Set<string>> {
  const rows = await db.selectFrom('voice_numbers').select('e164').where('carrier', '=', carrier).where('mode', '=', mode).where('e164', 'like', `${prefix}%`).execute()
  return new Set(rows.map((r) => r.e164))
}

/** The number a carrier's inbound call rings (any workspace). */
export function findNumberByE164(db: Executor, carrier: Carrier, mode: Tenant['mode'], e164: string): Promise<VoiceNumbersTable | undefined> {
  return db.selectFrom('voice_numbers').selectAll().where('carrier', '=', carrier).where('mode', '=', mode).where('e164', '=', e164).executeTakeFirst()
}

export async function insertCall(db: Executor, row: VoiceCallsTable): Promise<void> {
  await db.insertInto('voice_calls').values(row).execute()
}

export function findCall(db: Executor, tenant: Tenant, id: string): Promise<VoiceCallsTable | undefined> {
  return scoped(db, tenant).selectFrom('voice_calls').selectAll().where('id', '=', id).executeTakeFirst()
}

/** A call by id in any workspace: only for carrier callbacks, which prove their tenant by its signature next. */
export function findCallAnywhere(db: Executor, id: string): Promise<VoiceCallsTable | undefined> {
  return db.selectFrom('voice_calls').selectAll().where('id', '=', id).executeTakeFirst()
}

export function findCallBySid(db: Executor, carrier: Carrier, sid: string): Promise<VoiceCallsTable | undefined> {
  return db.selectFrom('voice_calls').selectAll().where('carrier', '=', carrier).where('carrier_sid', '=', sid).executeTakeFirst()
}

export function listCalls(db: Executor, tenant: Tenant, q: ListVoiceCallsQueryT, page: Page): Promise<VoiceCallsTable[]> {
  let s = scoped(db, tenant).selectFrom('voice_calls').selectAll()
  if (q.status) s = s.where('status', '=', q.status)
  if (q.number_id) s = s.where('number_id', '=', q.number_id)
  if (q.direction) s = s.where('direction', '=', q.direction)
  if (page.after) s = s.where('id', '<', page.after)
  return s
    .orderBy('id', 'desc')
    .limit(page.limit + 1)
    .execute()
}

/**
 * Changes a call only if it is still as the caller read it (`status` and `plan_seq`): a concurrent step,
 * a transfer or a retried job makes this 0 rows, and the caller does nothing more.
 */
export async function updateCallIf(db: Executor, tenant: Tenant, id: string, expect: Pick<VoiceCallsTable, 'status' | 'plan_seq'>, patch: Partial<VoiceCallsTable>): Promise<boolean> {
  const r = await scoped(db, tenant).updateTable('voice_calls').set(patch).where('id', '=', id).where('status', '=', expect.status).where('plan_seq', '=', expect.plan_seq).executeTakeFirst()
  return Number(r.numUpdatedRows) === 1
}

/** Media columns (recording, transcript) change apart from the call's state; guarded by their own status. */
export async function updateMediaIf(
  db: Executor,
  tenant: Tenant,
  id: string,
  expect: Partial<Pick<VoiceCallsTable, 'recording_status' | 'transcript_status'>>,
  patch: Partial<VoiceCallsTable>,
): Promise<boolean> {
  let q = scoped(db, tenant).updateTable('voice_calls').set(patch).where('id', '=', id)
  if (expect.recording_status) q = q.where('recording_status', '=', expect.recording_status)
  if (expect.transcript_status) q = q.where('transcript_status', '=', expect.transcript_status)
  const r = await q.executeTakeFirst()
  return Number(r.numUpdatedRows) === 1
}

/** Health: the tables answer (any tenant, one row at most). */
export async function probe(db: Executor): Promise<void> {
  await db.selectFrom('voice_calls').select('id').limit(1).execute()
}

// ---- data subjects and retention (voice.privacy.ts, voice.retention.ts) ----

/** Calls with the subject on the caller side: the destination of an outbound call, the caller of an inbound one. */
export function callsOfPhone(db: Executor, tenant: Tenant, phone: string): Promise<VoiceCallsTable[]> {
  return scoped(db, tenant)
    .selectFrom('voice_calls')
    .selectAll()
    .where((eb) => eb.or([eb.and([eb('direction', '=', 'outbound'), eb('to_number', '=', phone)]), eb.and([eb('direction', '=', 'inbound'), eb('from_number', '=', phone)])]))
    .orderBy('id')
    .execute()
}

/** Any columns of a call, unguarded (erasure: whatever state the call is in). */
export async function updateCall(db: Executor, tenant: Tenant, id: string, patch: Partial<VoiceCallsTable>): Promise<void> {
  await scoped(db, tenant).updateTable('voice_calls').set(patch).where('id', '=', id).execute()
}

/** Calls ended before `before` whose recording (`recording`) or transcript (`transcript`) is ready: what retention removes. */
const withReadyMedia = (db: Executor, tenant: Tenant, media: 'recording' | 'transcript', before: string) =>
  scoped(db, tenant)
    .selectFrom('voice_calls')
    .where(media === 'recording' ? 'recording_status' : 'transcript_status', '=', 'ready')
    .where('ended_at', '<', before)

export async function countReadyMediaBefore(db: Executor, tenant: Tenant, media: 'recording' | 'transcript', before: string): Promise<number> {
  const r = await withReadyMedia(db, tenant, media, before)
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirst()
  return Number(r?.n ?? 0)
}

/** Up to `limit` of them, the earliest ended first. */
export function readyMediaBefore(db: Executor, tenant: Tenant, media: 'recording' | 'transcript', before: string, limit: number): Promise<Pick<VoiceCallsTable, 'id' | 'recording_key'>[]> {
  return withReadyMedia(db, tenant, media, before).select(['id', 'recording_key']).orderBy('ended_at').orderBy('id').limit(limit).execute()
}
