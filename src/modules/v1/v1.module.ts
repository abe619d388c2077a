import { defineModule } from '../../kernel/module.js'
import { V1_ERRORS } from './v1.errors.js'
import { v1Endpoints } from './v1.http.js'

/**
 * Version 1 compatibility (docs/migration-v1.md): the deprecated /api/v1 endpoints as shims over v2's
 * services. No tables, no v2 operations: its endpoints are mounted outside the OpenAPI document.
 */
export const v1Module = defineModule({
  name: 'v1',
  uses: ['inbox', 'agents'],
  errors: V1_ERRORS,
  migrations: [],
  routes: [],
  init() {},
  callbacks: async (app, kernel, services) => {
    await app.register(v1Endpoints(kernel, services))
  },
})
