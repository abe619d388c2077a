import { fromJson, toJson } from '../../kernel/db/database.js'
import { SecretBox } from '../../kernel/crypto/secret-box.js'
import type { StoredSecret } from './webhooks.tables.js'

// Signing secrets must be usable (HMAC needs them), so they are sealed, not hashed: each `secret` of the
// endpoint's `secrets` column is a SecretBox value bound to the endpoint id.

/** Opened columns by their sealed text: a busy endpoint signs without an AES operation per delivery. */
const opened = new Map<string, StoredSecret[]>()
const OPENED_MAX = 2000

export function sealSecrets(box: SecretBox, endpointId: string, secrets: StoredSecret[]): string {
  return toJson(secrets.map((s) => ({ ...s, secret: box.seal(s.secret, endpointId) })))
}

/** Values stored before sealing existed (plain `whsec_…`) still open; `svc secrets reseal` seals them. */
export function openSecrets(box: SecretBox, endpointId: string, column: string): StoredSecret[] {
  const cacheKey = `${endpointId}\n${column}`
  const hit = opened.get(cacheKey)
  if (hit) return hit
  const secrets = fromJson<StoredSecret[]>(column, []).map((s) => (SecretBox.isSealed(s.secret) ? { ...s, secret: box.open(s.secret, endpointId) } : s))
  if (opened.size >= OPENED_MAX) opened.clear()
  opened.set(cacheKey, secrets)
  return secrets
}

export function needsReseal(box: SecretBox, column: string): boolean {
  return fromJson<StoredSecret[]>(column, []).some((s) => box.isStale(s.secret))
}
