import { ALL_SCOPES } from './kernel/auth/scopes.js'
import { createApiKey } from './kernel/auth/api-keys.js'
import type { Kernel } from './kernel/kernel.js'
import type { Services } from './kernel/services.js'

/**
 * First start against an empty database: create a workspace and one live and one test key holding every
 * scope. The keys are printed once by the caller; only their hashes are stored.
 */
export async function bootstrapIfEmpty(kernel: Kernel, services: Services): Promise<null | { workspaceId: string; live: string; test: string }> {
  if (await services.workspaces.first()) return null
  const ws = await services.workspaces.create({ name: 'Default workspace' })
  const live = await createApiKey(kernel.db, kernel.clock, { workspaceId: ws.id, mode: 'live', scopes: [...ALL_SCOPES], name: 'bootstrap' })
  const test = await createApiKey(kernel.db, kernel.clock, { workspaceId: ws.id, mode: 'test', scopes: [...ALL_SCOPES], name: 'bootstrap' })
  return { workspaceId: ws.id, live: live.key, test: test.key }
}
