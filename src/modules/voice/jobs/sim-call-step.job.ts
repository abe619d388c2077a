import { inheritAudit, sideOwner } from '../../../kernel/audit/audit.js'
import { fromJson, toJson } from '../../../kernel/db/database.js'
import { enqueue, defineJob, type JobDefinition } from '../../../kernel/jobs/jobs.js'
import type { Kernel } from '../../../kernel/kernel.js'
import type { Services } from '../../../kernel/services.js'
import type { Tenant } from '../../../kernel/tenant.js'
import { endOf, planConversation } from '../call-plan.js'
import type { CallLifecycle } from '../call-lifecycle.js'
import type { CallStatus } from '../carriers/carrier.types.js'
import { nextStep, outcomeOf } from '../simulated/sim-outcomes.js'
import { answererFor } from '../voice-answerer.js'
import * as repo from '../voice.repository.js'
import type { VoiceSpeech } from '../voice.speech.js'

export interface SimStepPayload {
  workspace_id: string
  mode: Tenant['mode']
  call_id: string
  /** The plan this step belongs to: a transfer makes a new one, and the old plan's hang-up does nothing. */
  seq: number
  to: CallStatus
}

/**
 * One step of a call on the simulated carrier, run by the worker when it is due: dialling → ringing →
 * answered / busy / no answer / failed, then the hang-up at the end of the planned conversation. Each step
 * moves the call only from the status it expects (a retried or overtaken step does nothing) and queues
 * the next in the same transaction. Answering plans the conversation first (bot or agent answers, line
 * lengths from the synthesised audio); a retry plans again, and tool calls are keyed by call and turn.
 */
export const simCallStepJob = (k: Kernel, services: Services, lifecycle: CallLifecycle, speech: VoiceSpeech, self: () => JobDefinition<SimStepPayload>) =>
  defineJob<SimStepPayload>({
    name: 'voice.sim-step',
    retrySchedule: [1, 5, 30],
    async run(p, ctx) {
      const tenant: Tenant = inheritAudit(ctx, { workspaceId: p.workspace_id, mode: p.mode })
      const call = await repo.findCall(k.db, tenant, p.call_id)
      if (!call || Number(call.plan_seq) !== p.seq) return
      const now = k.clock.now()
      const later = (ms: number, to: CallStatus) => ({ payload: { ...p, to }, runAt: new Date(now.getTime() + ms) })
      const setup = (ms: number) => ms * k.config.voice.simSetupScale

      if (p.to === 'completed') {
        if (call.status !== 'in_progress') return
        const at = new Date(Date.parse(call.answered_at!) + endOf(fromJson(call.lines, [])))
        await k.transaction(sideOwner(tenant), (tx) => lifecycle.move(tx, tenant, call, 'completed', at, { end_reason: 'hangup' }))
        return
      }
      if (p.to === 'in_progress') {
        if (call.status !== 'ringing') return
        const answerer = await answererFor(k, services, tenant, call)
        const lines = await planConversation(answerer, fromJson<string[]>(call.script, []), speech.measure)
        await k.transaction(sideOwner(tenant), async (tx) => {
          const moved = await lifecycle.move(tx, tenant, call, 'in_progress', now, { lines: toJson(lines) })
          if (moved) {
            const next = later(endOf(lines), 'completed')
            await enqueue(tx, k.clock, self(), next.payload, { runAt: next.runAt })
          }
        })
        return
      }
      const step = nextStep(call.status, outcomeOf(call.to_number))
      if (!step || step.to !== p.to) return
      await k.transaction(sideOwner(tenant), async (tx) => {
        const moved = await lifecycle.move(tx, tenant, call, step.to, now, step.reason ? { end_reason: step.reason } : {})
        const after = moved ? nextStep(moved.status, outcomeOf(call.to_number)) : null
        if (after) {
          const next = later(setup(after.afterMs), after.to)
          await enqueue(tx, k.clock, self(), next.payload, { runAt: next.runAt })
        }
      })
    },
  })
