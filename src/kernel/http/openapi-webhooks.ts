import type { EventType } from '../events/events.js'
import { API_VERSION } from '../events/events.js'
import { camel, pascal, ref, type Json, type SchemaRegistry } from './openapi-registry.js'

/** The OpenAPI 3.1 `webhooks` section: one POST per event type of the catalog. */

function eventComponent(registry: SchemaRegistry, t: EventType): Json {
  return {
    type: 'object',
    description: `The \`${t.type}\` event (${t.module}): ${t.description}`,
    required: ['id', 'type', 'created_at', 'workspace_id', 'livemode', 'api_version', 'data'],
    properties: {
      id: { type: 'string', description: 'The event id (`evt_…`): the same in every attempt and replay; deduplicate on it.', examples: ['evt_01JD4M3Q8Y7ZV9S2K5R1X0B6TN'] },
      type: { type: 'string', enum: [t.type] },
      created_at: { type: 'string', format: 'date-time' },
      workspace_id: { type: 'string' },
      livemode: { type: 'boolean', description: 'false for events of the sandbox (svc_test_ keys).' },
      api_version: { type: 'string', description: 'The API version of the payload shape.' },
      data: {
        type: 'object',
        required: ['object'],
        properties: { object: registry.use(t.schema) },
      },
    },
  }
}

/**
 * How events reach receivers — headers, what their answers mean — belongs to the module that delivers them
 * (`defineModule({ eventDelivery })`); the kernel only lays out one POST per event type.
 */
export interface EventDelivery {
  /** Request headers of every delivery, as OpenAPI header parameters keyed by component name. */
  headers: Record<string, Json>
  /** How the receiver's answer is read. */
  responses: Record<string, Json>
  /** Appended to each event's description. */
  note: string
}

export function webhooks(registry: SchemaRegistry, events: EventType[], delivery: EventDelivery): Json {
  const out: Record<string, Json> = {}
  for (const t of events) {
    const name = `${pascal(t.type)}Event`
    registry.hoist(name, eventComponent(registry, t))
    out[t.type] = {
      post: {
        operationId: `${camel(t.type)}Event`,
        summary: `Event ${t.type}`,
        description: `${t.description}\n\n${delivery.note.replaceAll('{type}', t.type)}`,
        tags: [t.module],
        security: [],
        parameters: Object.keys(delivery.headers).map((p) => ref('parameters', p)),
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: ref('schemas', name),
              example: {
                id: 'evt_01JD4M3Q8Y7ZV9S2K5R1X0B6TN',
                type: t.type,
                created_at: '2026-01-05T10:00:00.000Z',
                workspace_id: 'ws_01JD4M0000000000000000000',
                livemode: true,
                api_version: API_VERSION,
                data: { object: t.example },
              },
            },
          },
        },
        responses: delivery.responses,
      },
    }
  }
  return out
}
