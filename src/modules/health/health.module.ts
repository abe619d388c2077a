import { defineModule } from '../../kernel/module.js'
import { HealthService } from './health.service.js'
import { getApiHealth } from './routes/get-api-health.route.js'
import { getApiRoot } from './routes/get-api-root.route.js'

export const healthModule = defineModule({
  name: 'health',
  migrations: [],
  routes: [getApiRoot, getApiHealth],
  init(kernel, services) {
    services.health = new HealthService(kernel, services)
  },
})
