import type { ComponentType } from 'preact'
import WebhookDeliveries from './deliveries-list.js'
import WebhookDeliveryDetail from './deliveries-detail.js'
import WebhookPlayground from './playground-live.js'
import WebhookEndpointDetail from './webhooks-detail.js'
import WebhookEndpoints from './webhooks-list.js'

/** The webhook pages, relative to /dashboard/developers. */
export const WEBHOOK_ROUTES: { path: string; component: ComponentType }[] = [
  { path: '/webhooks', component: WebhookEndpoints },
  { path: '/webhooks/:id', component: WebhookEndpointDetail },
  { path: '/deliveries', component: WebhookDeliveries },
  { path: '/deliveries/:id', component: WebhookDeliveryDetail },
  { path: '/playground', component: WebhookPlayground },
]
