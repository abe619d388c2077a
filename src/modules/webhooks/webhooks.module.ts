import { defineModule } from '../../kernel/module.js'
import { WebhookDeliverer } from './jobs/deliver-webhook.job.js'
import { purgePlaygroundJob } from './jobs/purge-playground.job.js'
import { PlaygroundService } from './playground.service.js'
import { captureWebhookPlaygroundDelete } from './routes/capture-webhook-playground-delete.route.js'
import { captureWebhookPlaygroundGet } from './routes/capture-webhook-playground-get.route.js'
import { captureWebhookPlaygroundPatch } from './routes/capture-webhook-playground-patch.route.js'
import { captureWebhookPlaygroundPost } from './routes/capture-webhook-playground-post.route.js'
import { captureWebhookPlaygroundPut } from './routes/capture-webhook-playground-put.route.js'
import { createPublicWebhookEndpoint } from './routes/create-public-webhook-endpoint.route.js'
import { createWebhookEndpoint } from './routes/create-webhook-endpoint.route.js'
import { deletePublicWebhookEndpoint } from './routes/delete-public-webhook-endpoint.route.js'
import { deleteWebhookEndpoint } from './routes/delete-webhook-endpoint.route.js'
import { getPublicWebhookEndpoint } from './routes/get-public-webhook-endpoint.route.js'
import { getWebhookDelivery } from './routes/get-webhook-delivery.route.js'
import { getWebhookEndpoint } from './routes/get-webhook-endpoint.route.js'
import { listEventCatalog } from './routes/list-event-catalog.route.js'
import { listPublicWebhookEndpoints } from './routes/list-public-webhook-endpoints.route.js'
import { listWebhookDeliveries } from './routes/list-webhook-deliveries.route.js'
import { listWebhookEndpoints } from './routes/list-webhook-endpoints.route.js'
import { listWebhookEvents } from './routes/list-webhook-events.route.js'
import { replayWebhookDelivery } from './routes/replay-webhook-delivery.route.js'
import { rotateWebhookSecret } from './routes/rotate-webhook-secret.route.js'
import { streamWebhookPlayground } from './routes/stream-webhook-playground.route.js'
import { testWebhookEndpoint } from './routes/test-webhook-endpoint.route.js'
import { updatePublicWebhookEndpoint } from './routes/update-public-webhook-endpoint.route.js'
import { updateWebhookEndpoint } from './routes/update-webhook-endpoint.route.js'
import { WEBHOOK_EVENTS } from './webhooks.events.js'
import { webhooksMigrations } from './webhooks.migrations.js'
import { webhooksPrivacy } from './webhooks.privacy.js'
import { WEBHOOKS_RETENTION } from './webhooks.retention.js'
import { WebhooksService } from './webhooks.service.js'
import { WEBHOOK_DELIVERY } from './webhooks.delivery-contract.js'
import { WEBHOOKS_ERRORS } from './webhooks.errors.js'

export const webhooksModule = defineModule({
  name: 'webhooks',
  scopes: [{ resource: 'webhooks' }],
  errors: WEBHOOKS_ERRORS,
  eventDelivery: WEBHOOK_DELIVERY,
  migrations: webhooksMigrations,
  routes: [
    listWebhookEndpoints,
    createWebhookEndpoint,
    getWebhookEndpoint,
    updateWebhookEndpoint,
    deleteWebhookEndpoint,
    testWebhookEndpoint,
    rotateWebhookSecret,
    listWebhookDeliveries,
    getWebhookDelivery,
    replayWebhookDelivery,
    listWebhookEvents,
    captureWebhookPlaygroundGet,
    captureWebhookPlaygroundPost,
    captureWebhookPlaygroundPut,
    captureWebhookPlaygroundPatch,
    captureWebhookPlaygroundDelete,
    streamWebhookPlayground,
    listEventCatalog,
    listPublicWebhookEndpoints,
    createPublicWebhookEndpoint,
    getPublicWebhookEndpoint,
    updatePublicWebhookEndpoint,
    deletePublicWebhookEndpoint,
  ],
  init(kernel, services) {
    kernel.events.declare(WEBHOOK_EVENTS)
    const deliverer = new WebhookDeliverer(kernel)
    const purge = purgePlaygroundJob(kernel.db, kernel.clock)
    kernel.jobs.register(deliverer.job)
    kernel.jobs.register(purge)
    services.webhooks = new WebhooksService(kernel, deliverer)
    services.webhookPlayground = new PlaygroundService(kernel, purge)
    kernel.events.subscribeInTransaction('webhooks.fanout', (tx, event) => services.webhooks.deliveries.fanOut(tx, event))
  },
  health: (_kernel, services) => services.webhooks.health(),
  reseal: (_kernel, services) => services.webhooks.endpoints.reseal(),
  metrics: (_kernel, services) => services.webhooks.metrics(),
  privacy: webhooksPrivacy,
  retention: WEBHOOKS_RETENTION,
})
