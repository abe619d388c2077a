import { defineModule } from '../../../kernel/module.js'
import { ApiLogsService } from './api-logs.service.js'
import { ApiUsageService } from './api-usage.service.js'
import { getPublicApiUsage } from './routes/get-public-api-usage.route.js'
import { listApiLogs } from './routes/list-api-logs.route.js'

declare module '../../../kernel/services.js' {
  interface Services {
    apiLogs: ApiLogsService
    apiUsage: ApiUsageService
  }
}

/**
 * The API logs and usage part of the developer module (merged into `developer` by the lead once all parts
 * exist). The kernel records the requests (kernel/http/api-log.ts) into its own tables; this part reads them.
 */
export const logsModule = defineModule({
  name: 'developer-logs',
  migrations: [],
  routes: [listApiLogs, getPublicApiUsage],
  init(kernel, services) {
    services.apiLogs = new ApiLogsService(kernel)
    services.apiUsage = new ApiUsageService(kernel)
  },
})
