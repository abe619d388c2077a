// Scope rules (docs/architecture.md#scopes):
//   admin grants everything; write grants read; read/write grant every granular …:read / …:write;
//   X:write grants X:read.
export const GRANULAR_SCOPES = [
  'conversations:read',
  'conversations:write',
  'messages:read',
  'messages:write',
  'bots:read',
  'bots:write',
  'leads:read',
  'leads:write',
  'webhooks:read',
  'webhooks:write',
] as const
export const BROAD_SCOPES = ['read', 'write', 'admin'] as const
export const ALL_SCOPES: readonly string[] = [...BROAD_SCOPES, ...GRANULAR_SCOPES]

export function isKnownScope(s: string): boolean {
  return ALL_SCOPES.includes(s)
}

export function scopeGrants(held: string, required: string): boolean {
  if (held === required || held === 'admin') return true
  if (required === 'admin') return false
  const [reqRes, reqAct] = required.includes(':') ? required.split(':') : [null, required]
  const [heldRes, heldAct] = held.includes(':') ? held.split(':') : [null, held]
  // write ⊇ read, at the same breadth.
  const actionOk = heldAct === reqAct || (heldAct === 'write' && reqAct === 'read')
  if (!actionOk) return false
  if (heldRes === null) return true // broad read/write covers any resource
  return heldRes === reqRes
}

export function hasScope(held: readonly string[], required: string): boolean {
  return held.some((h) => scopeGrants(h, required))
}
