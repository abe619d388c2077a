import type { Mode } from '../tenant.js'

/** The two base URLs every operation is served on: live keys on one, test keys on the other. */
export const BASES: { prefix: string; mode: Mode }[] = [
  { prefix: '/v2', mode: 'live' },
  { prefix: '/sandbox/v2', mode: 'test' },
]
export const BASE_OF: Record<Mode, string> = { live: '/v2', test: '/sandbox/v2' }

/** Whether a path lies under one of the base URLs. */
export const underBase = (path: string): boolean => BASES.some((b) => path === b.prefix || path.startsWith(`${b.prefix}/`))
