import { defineModule } from '../../../kernel/module.js'
import { createSdkGeneration } from './routes/create-sdk-generation.route.js'
import { listSdkGenerations } from './routes/list-sdk-generations.route.js'
import { sdkDownloads } from './sdk-generations.downloads.js'
import { SDK_GENERATIONS_ERRORS } from './sdk-generations.errors.js'
import { SDK_GENERATIONS_EVENTS } from './sdk-generations.events.js'
import { sdkGenerationsMigrations } from './sdk-generations.migrations.js'
import { sdkGenerationsUsage, SdkGenerationsService } from './sdk-generations.service.js'

/** Part of the developer module (merged by the lead): client packages generated on demand. */
export const developerSdkModule = defineModule({
  name: 'developer-sdk',
  errors: SDK_GENERATIONS_ERRORS,
  migrations: sdkGenerationsMigrations,
  routes: [listSdkGenerations, createSdkGeneration],
  init(kernel, services) {
    kernel.events.declare(SDK_GENERATIONS_EVENTS)
    const sdk = new SdkGenerationsService(kernel)
    kernel.jobs.register(sdk.job)
    services.developerSdk = sdk
  },
  callbacks: async (app, kernel) => {
    await app.register(sdkDownloads(kernel))
  },
  maintenance: async (_kernel, services) => {
    await services.developerSdk.purgeExpired()
  },
  usage: sdkGenerationsUsage,
})
