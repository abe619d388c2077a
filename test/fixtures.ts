import type { Fixture } from '../src/kernel/module.js'
import { MODULES } from '../src/modules/index.js'

/** Every module's fixtures (`<module>.fixtures.ts`, declared in defineModule): no central table to edit. */
export const FIXTURES: Record<string, Fixture> = Object.assign({}, ...(await Promise.all(MODULES.map((m) => m.fixtures?.() ?? Promise.resolve({})))))
