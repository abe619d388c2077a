import { sql } from 'kysely'
import { prepared } from '../../kernel/db/prepared.js'
import { scoped } from '../../kernel/db/scoped.js'
import type { Executor } from '../../kernel/db/database.js'
import type { Tenant } from '../../kernel/tenant.js'
import { deliveryLookup, jsonRows, lookup, onSqlite } from './webhook-batch.sql.js'
import './webhooks.tables.js'
import type { DeliveryStatus, WebhookAttemptsTable, WebhookDeliveriesTable } from './webhooks.tables.js'

// The attempt path, once the receiver answered: the attempt completed (once) and the outcome on its delivery.

type AttemptOutcome = Pick<WebhookAttemptsTable, 'status' | 'response_status' | 'response_body' | 'error' | 'duration_ms'>

/**
 * Completes an attempt in flight (`sending`). Guarded by that status: false when another run already
 * concluded it (a worker whose lease was taken over must then record nothing).
 */
export async function finishAttempt(db: Executor, tenant: Tenant, attemptId: string, outcome: AttemptOutcome): Promise<boolean> {
  const args = { workspaceId: tenant.workspaceId, mode: tenant.mode, id: attemptId, ...outcome }
  return (await finishAttemptQ.run(db, args)) === 1
}
const finishAttemptQ = prepared((db, a: Tenant & AttemptOutcome & { id: string }) =>
  scoped(db, a)
    .updateTable('webhook_attempts')
    .set({ status: a.status, response_status: a.response_status, response_body: a.response_body, error: a.error, duration_ms: a.duration_ms })
    .where('id', '=', a.id)
    .where('status', '=', 'sending'),
)

/**
 * Records the outcome of a finished attempt on its delivery: the patch, and attempts_count + 1 (an
 * attempt counts once its outcome is known). Callers run it in the transaction whose finishAttempt
 * succeeded, so each attempt is counted once.
 */
export async function recordOutcome(db: Executor, tenant: Tenant, id: string, patch: Partial<WebhookDeliveriesTable>): Promise<void> {
  await scoped(db, tenant)
    .updateTable('webhook_deliveries')
    .set((eb) => ({ ...patch, attempts_count: eb('attempts_count', '+', 1) }))
    .where('id', '=', id)
    .execute()
}

/** The outcome of one attempt on its delivery: `last_error` and `next_retry_at` are written only when their flag is set. */
export interface DeliveryOutcome {
  id: string
  status: DeliveryStatus
  last_attempt_at: string
  last_response_status: number | null
  last_response_body: string | null
  last_duration_ms: number | null
  updated_at: string
  set_last_error: boolean
  last_error: string | null
  set_next_retry_at: boolean
  next_retry_at: string | null
}

/** One answer to record: the attempt's outcome and its delivery's. */
export interface Answered {
  attempt: AttemptOutcome & { id: string }
  delivery: DeliveryOutcome
}

/**
 * For each answer, in the caller's transaction: finishAttempt, and where that succeeded, recordOutcome
 * with the delivery's outcome. Each delivery at most once per call. Returns the ids of the attempts
 * completed. PostgreSQL does it all in one statement.
 */
export async function recordAnswers(db: Executor, tenant: Tenant, answers: Answered[]): Promise<Set<string>> {
  const done = new Set<string>()
  if (answers.length === 0) return done
  const t = { workspaceId: tenant.workspaceId, mode: tenant.mode }
  if (onSqlite(db)) {
    for (const { attempt, delivery } of answers) {
      if ((await finishAttemptQ.run(db, { ...t, ...attempt })) !== 1) continue
      done.add(attempt.id)
      await recordOutcomeQ.run(db, { ...t, ...delivery })
    }
    return done
  }
  const rows = answers.map(({ attempt: at, delivery: d }) => ({
    attempt_id: at.id,
    attempt_status: at.status,
    response_status: at.response_status,
    response_body: at.response_body,
    error: at.error,
    duration_ms: at.duration_ms,
    ...d,
  }))
  for (const r of await recordAnswersQ.all(db, { ...t, rows: JSON.stringify(rows) })) done.add(r.id)
  return done
}
const recordOutcomeQ = prepared((db, a: Tenant & DeliveryOutcome) => {
  let q = scoped(db, a)
    .updateTable('webhook_deliveries')
    .set((eb) => ({
      status: a.status,
      last_attempt_at: a.last_attempt_at,
      last_response_status: a.last_response_status,
      last_response_body: a.last_response_body,
      last_duration_ms: a.last_duration_ms,
      updated_at: a.updated_at,
      attempts_count: eb('attempts_count', '+', 1),
    }))
    .where('id', '=', a.id)
  if (a.set_last_error) q = q.set({ last_error: a.last_error })
  if (a.set_next_retry_at) q = q.set({ next_retry_at: a.next_retry_at })
  return q
})
type AnswerRow = DeliveryOutcome & { attempt_id: string; attempt_status: AttemptOutcome['status'] } & Omit<AttemptOutcome, 'status'>
const ANSWER_COLUMNS =
  'attempt_id text, attempt_status text, response_status integer, response_body text, error text, duration_ms integer, ' +
  'id text, status text, last_attempt_at text, last_response_status integer, last_response_body text, last_duration_ms integer, updated_at text, ' +
  'set_last_error boolean, last_error text, set_next_retry_at boolean, next_retry_at text'
// PostgreSQL, one statement: `f` completes the attempts, `d` records the outcome on the delivery of each
// attempt `f` completed (both find their rows through scoped(), see above), and it answers f's ids.
const recordAnswersQ = prepared((db, a: Tenant & { rows: string }) => {
  const t = 'webhook_deliveries'
  return db
    .with('f', (qc) =>
      qc
        .updateTable('webhook_attempts')
        .from(
          qc
            .selectFrom(jsonRows<AnswerRow>(a.rows, ANSWER_COLUMNS).as('v'))
            .innerJoinLateral(
              (eb) => lookup(eb, a, 'webhook_attempts', 'v.attempt_id').as('x'),
              (j) => j.onTrue(),
            )
            .selectAll('v')
            .select('x.id as target')
            .as('s'),
        )
        .set({
          status: sql`s.attempt_status`,
          response_status: sql`s.response_status`,
          response_body: sql`s.response_body`,
          error: sql`s.error`,
          duration_ms: sql`s.duration_ms`,
        })
        .whereRef('webhook_attempts.id', '=', 's.target')
        .where('webhook_attempts.status', '=', 'sending')
        .returning('webhook_attempts.id'),
    )
    .with('d', (qc) =>
      qc
        .updateTable(t)
        .from(
          qc
            .selectFrom(jsonRows<AnswerRow>(a.rows, ANSWER_COLUMNS).as('v'))
            .innerJoin(sql<{ id: string }>`f`.as('f'), 'f.id', 'v.attempt_id')
            .innerJoinLateral(
              (eb) => deliveryLookup(eb, a, 'v.id').as('x'),
              (j) => j.onTrue(),
            )
            .selectAll('v')
            .select('x.id as target')
            .as('s'),
        )
        .set((eb) => ({
          status: sql`s.status`,
          last_attempt_at: sql`s.last_attempt_at`,
          last_response_status: sql`s.last_response_status`,
          last_response_body: sql`s.last_response_body`,
          last_duration_ms: sql`s.last_duration_ms`,
          updated_at: sql`s.updated_at`,
          last_error: sql`case when s.set_last_error then s.last_error else ${sql.ref(`${t}.last_error`)} end`,
          next_retry_at: sql`case when s.set_next_retry_at then s.next_retry_at else ${sql.ref(`${t}.next_retry_at`)} end`,
          attempts_count: eb(`${t}.attempts_count`, '+', 1),
        }))
        .whereRef(`${t}.id`, '=', 's.target')
        .returning(`${t}.id`),
    )
    .selectFrom('f')
    .select('f.id')
})
