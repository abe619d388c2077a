import type { RetentionClass } from '../../kernel/module.js'
import * as repo from './bots.repository.js'

/** The bots module's classes of data a retention policy governs (docs/compliance.md "Retention"). */
export const BOTS_RETENTION: RetentionClass[] = [
  {
    name: 'bot_test_exchanges',
    description: "Test exchanges with bots (the dashboard's test chat, version tries: bot replies stored with test true, never in the inbox) made before the cutoff, deleted with their questions.",
    minimumDays: 1,
    count: (k, tenant, before) => repo.countTestRepliesBefore(k.db, tenant, before),
    purge: (k, tenant, before, limit) => repo.deleteTestRepliesBefore(k.db, tenant, before, limit),
  },
]
