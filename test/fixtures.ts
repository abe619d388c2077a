import type { Fixture } from '../src/kernel/module.js'
import { FIXTURES as agents } from '../src/modules/agents/agents.fixtures.js'
import { FIXTURES as bots } from '../src/modules/bots/bots.fixtures.js'
import { FIXTURES as channels } from '../src/modules/channels/channels.fixtures.js'
import { FIXTURES as compliance } from '../src/modules/compliance/compliance.fixtures.js'
import { FIXTURES as keys } from '../src/modules/developer/keys/keys.fixtures.js'
import { FIXTURES as oauth } from '../src/modules/developer/oauth/oauth.fixtures.js'
import { FIXTURES as sandbox } from '../src/modules/developer/sandbox/sandbox.fixtures.js'
import { FIXTURES as sdkGenerations } from '../src/modules/developer/sdk-generations/sdk-generations.fixtures.js'
import { FIXTURES as inbox } from '../src/modules/inbox/inbox.fixtures.js'
import { FIXTURES as knowledge } from '../src/modules/knowledge/knowledge.fixtures.js'
import { FIXTURES as leads } from '../src/modules/leads/leads.fixtures.js'
import { FIXTURES as live } from '../src/modules/live/live.fixtures.js'
import { FIXTURES as voice } from '../src/modules/voice/voice.fixtures.js'
import { FIXTURES as webhooks } from '../src/modules/webhooks/webhooks.fixtures.js'
import { FIXTURES as workspaces } from '../src/modules/workspaces/workspaces.fixtures.js'

// Imported here rather than declared by the modules: a module definition is production code, and a fixture must not
// be reachable from it. test/test-support-graph.test.ts fails when a `src/modules/**/<name>.fixtures.ts` is missing here.
const PER_MODULE: Record<string, Fixture>[] = [agents, bots, channels, compliance, keys, oauth, sandbox, sdkGenerations, inbox, knowledge, leads, live, voice, webhooks, workspaces]

function merge(): Record<string, Fixture> {
  const all: Record<string, Fixture> = {}
  for (const fixtures of PER_MODULE)
    for (const [operationId, fixture] of Object.entries(fixtures)) {
      if (operationId in all) throw new Error(`two fixtures for ${operationId}`)
      all[operationId] = fixture
    }
  return all
}

/** Every module's fixtures per operationId (`<module>.fixtures.ts`, each exporting FIXTURES). */
export const FIXTURES: Record<string, Fixture> = merge()
