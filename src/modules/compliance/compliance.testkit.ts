// Shared steps for the compliance tests (not a test file itself): the real app on a clock the tests move.
import { ManualClock } from '../../kernel/clock.js'
import { createTestApp, type TestApp } from '../../../test/helpers.js'

export { assertProblem, events, get, json, ok, patch, post } from '../../../test/helpers.js'

export interface ComplianceApp extends TestApp {
  clock: ManualClock
}

export async function complianceApp(env: Record<string, string> = {}): Promise<ComplianceApp> {
  const clock = new ManualClock(Date.parse('2026-11-29T09:00:00Z'))
  const h = await createTestApp({ env, clock })
  return Object.assign(h, { clock })
}
