import { Agent } from 'undici'
import { policyLookup } from './address-policy.js'

// One keep-alive pool per policy (and pool size) for outbound calls made on a user's behalf: the lookup
// re-checks every resolved address at connect time (DNS rebinding), and undici's request() never follows
// redirects. Shared by HTTP tools and CRM adapters.
const agents = new Map<string, Agent>()

export function policyAgent(allowPrivateNetworks: boolean, connections = 64): Agent {
  const key = `${allowPrivateNetworks}:${connections}`
  let a = agents.get(key)
  if (!a) {
    a = new Agent({ connect: { lookup: policyLookup({ allowPrivateNetworks }) }, keepAliveTimeout: 10_000, connections })
    agents.set(key, a)
  }
  return a
}
