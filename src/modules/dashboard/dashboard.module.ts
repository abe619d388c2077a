import type { Kernel } from '../../kernel/kernel.js'
import { defineModule } from '../../kernel/module.js'
import type { Services } from '../../kernel/services.js'
import { dashboardHttp } from './dashboard.http.js'
import { DashboardTokens } from './dashboard.tokens.js'

// One token issuer per app (tests run several apps in one process, each with its own server secret).
const issuers = new WeakMap<Kernel, DashboardTokens>()
function issuer(kernel: Kernel, services: Services): DashboardTokens {
  let t = issuers.get(kernel)
  if (!t) issuers.set(kernel, (t = new DashboardTokens(kernel.deriveKey('dashboard-tokens'), kernel.clock, services.signIn)))
  return t
}

/**
 * The dashboard (docs/dashboard.md): the web app at /dashboard, built from dashboard/ by `npm run build`,
 * and the session endpoints that give it API tokens for the signed-in member. No operations and no tables
 * of its own: the app uses the public API only.
 */
export const dashboardModule = defineModule({
  name: 'dashboard',
  uses: ['workspaces'],
  errors: {},
  migrations: [],
  routes: [],
  init() {},
  bearer: (kernel, services) => issuer(kernel, services).resolver(),
  callbacks: async (app, kernel, services) => {
    await app.register(dashboardHttp(kernel, services, issuer(kernel, services)))
  },
})
