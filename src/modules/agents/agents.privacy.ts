import { sideOwner } from '../../kernel/audit/audit.js'
import type { DataSubject, ModulePrivacy } from '../../kernel/module.js'
import type { Services } from '../../kernel/services.js'
import type { Kernel } from '../../kernel/kernel.js'
import type { Tenant } from '../../kernel/tenant.js'
import * as repo from './agents.repository.js'
import { approvalView, runView } from './agents.views.js'
import { mentionNeedles, namesSubject } from '../../kernel/pii/pii.mentions.js'

// The agents module's part in data-subject requests (docs/compliance.md "What each module does"): runs in
// the subject's conversations (found through the inbox) and runs whose input names the subject's email or
// phone. A run is erased whole: its steps (tool arguments, results, the answer) and approvals go with it.

/** Every string in a JSON value (the run's input: `{ text }` or `{ json }`). */
const stringsOf = (v: unknown): string[] =>
  typeof v === 'string' ? [v] : Array.isArray(v) ? v.flatMap(stringsOf) : v && typeof v === 'object' ? Object.entries(v).flatMap(([key, x]) => [key, ...stringsOf(x)]) : []

async function runsOf(k: Kernel, services: Services, tenant: Tenant, s: DataSubject) {
  const conversations = new Set(await services.inbox.subjectConversationIds(tenant, s))
  const candidates = await repo.runsOfSubject(k.db, tenant, [...conversations], mentionNeedles(s))
  return candidates.filter((r) => (r.conversation_id && conversations.has(r.conversation_id)) || stringsOf(JSON.parse(r.input)).some((t) => namesSubject(t, s)))
}

export const agentsPrivacy: ModulePrivacy = {
  async collect(k, services, tenant, subject) {
    const runs = await runsOf(k, services, tenant, subject)
    const ids = runs.map((r) => r.id)
    const [steps, approvals] = await Promise.all([repo.stepsOfRuns(k.db, tenant, ids), repo.approvalsOfRuns(k.db, tenant, ids)])
    const pending = (runId: string) => approvals.find((a) => a.run_id === runId && a.status === 'pending') ?? null
    return {
      records: {
        agent_runs: runs.map((r) =>
          runView(
            r,
            steps.filter((s) => s.run_id === r.id),
            pending(r.id),
          ),
        ),
        agent_approvals: approvals.map(approvalView),
      },
      files: [],
      ids: [...ids, ...approvals.map((a) => a.id)],
    }
  },

  /** Deletes the runs with their steps and approvals. Runs found by conversation need it still there: run before the inbox's erasure. */
  async erase(k, services, tenant, subject) {
    const ids = (await runsOf(k, services, tenant, subject)).map((r) => r.id)
    if (ids.length === 0) return { deleted: 0, anonymised: 0 }
    return { deleted: await k.transaction(sideOwner(tenant), (tx) => repo.deleteRuns(tx, tenant, ids)), anonymised: 0 }
  },
}
