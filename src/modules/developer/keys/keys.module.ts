import { defineModule } from '../../../kernel/module.js'
import { ApiKeysService } from './api-keys.service.js'
import { createApiKey } from './routes/create-api-key.route.js'
import { getApiKey } from './routes/get-api-key.route.js'
import { listApiKeys } from './routes/list-api-keys.route.js'
import { revokeApiKey } from './routes/revoke-api-key.route.js'

/** The API keys part of the developer module: the kernel's api_keys table, managed through the API. */
export const keysModule = defineModule({
  name: 'developer-keys',
  migrations: [],
  routes: [listApiKeys, createApiKey, getApiKey, revokeApiKey],
  init(kernel, services) {
    services.apiKeys = new ApiKeysService(kernel)
  },
})
