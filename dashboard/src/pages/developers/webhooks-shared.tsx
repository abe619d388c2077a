import type { components } from '../../api/schema.js'
import { Badge, Table, Time, type Tone } from '../../ui/components.js'
import { statusLabel, t } from '../../i18n/index.js'

export type Endpoint = components['schemas']['WebhookEndpoint']
export type Delivery = components['schemas']['WebhookDelivery']
export type DeliveryDetail = components['schemas']['WebhookDeliveryDetail']
export type Attempt = components['schemas']['WebhookAttempt']
export type DeliveryStatus = components['schemas']['WebhookDeliveryStatus']

export const DEV = '/dashboard/developers'

const DELIVERY_TONE: Record<string, Tone> = { pending: 'info', sending: 'info', succeeded: 'good', failed: 'bad' }

export function StatusBadge({ status }: { status: string }) {
  return <Badge tone={DELIVERY_TONE[status] ?? 'neutral'}>{statusLabel(status)}</Badge>
}

export function EndpointBadge({ endpoint }: { endpoint: Endpoint }) {
  if (endpoint.enabled) return <Badge tone={endpoint.failing_since ? 'warn' : 'good'}>{endpoint.failing_since ? t('developers.webhooksShared.enabledFailing') : 'enabled'}</Badge>
  return <Badge tone="bad">{t('developers.webhooksShared.disabled')}</Badge>
}

export function DeliveriesTable({ caption, rows }: { caption: string; rows: Delivery[] }) {
  return (
    <Table
      caption={caption}
      rowKey={(d) => d.id}
      rows={rows}
      columns={[
        { label: t('developers.webhooksShared.delivery'), render: (d) => <a href={`${DEV}/deliveries/${d.id}`}>{d.id}</a> },
        { label: t('developers.deliveriesDetail.event'), render: (d) => <code>{d.event_type}</code> },
        { label: t('developers.deliveriesDetail.status'), render: (d) => <StatusBadge status={d.status} /> },
        { label: t('developers.deliveriesDetail.attempts'), class: 'num', render: (d) => d.attempts_count },
        { label: t('developers.webhooksShared.lastResponse'), render: (d) => d.last_response_status ?? d.last_error ?? '—' },
        { label: t('developers.deliveriesDetail.created'), render: (d) => <Time iso={d.created_at} /> },
      ]}
    />
  )
}

/** The first `max` characters of a response body, with a note when cut. */
export function excerpt(body: string | null, max = 2000): string {
  if (!body) return ''
  return body.length > max ? `${body.slice(0, max)}\n… (${body.length - max} more characters)` : body
}
