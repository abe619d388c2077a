import { defineEvents, eventType, type PayloadsOf } from '../../../kernel/events/events.js'
import { SdkGeneration, type SdkGenerationT } from './sdk-generations.schemas.js'

const EXAMPLE: SdkGenerationT = {
  id: 'sdkgen_01JD0000000000000000000000',
  object: 'sdk_generation',
  language: 'python',
  package_name: 'acme-svc',
  version: '2.4.0',
  status: 'succeeded',
  error: null,
  api_version: '2.4.0',
  document_sha256: 'b'.repeat(64),
  operations: 158,
  archive: { format: 'zip', filename: 'acme-svc-2.4.0.zip', size_bytes: 48210, sha256: 'c'.repeat(64), files: 31, url: null, expires_at: '2026-12-02T09:00:03.000Z' },
  created_at: '2026-12-01T09:00:00.000Z',
  completed_at: '2026-12-01T09:00:03.000Z',
}

/** Event types of the SDK generations (developer module). Events never carry the download link. */
export const SDK_GENERATIONS_EVENTS = defineEvents(
  'developer',
  { scope: 'read' },
  {
    'sdk_generation.succeeded': eventType({ description: 'An SDK archive is ready (its download link is in listSdkGenerations).', schema: SdkGeneration, example: EXAMPLE }),
    'sdk_generation.failed': eventType({
      description: 'An SDK generation failed (`error`).',
      schema: SdkGeneration,
      example: { ...EXAMPLE, status: 'failed', error: 'The python emitter failed: …', operations: null, archive: null },
    }),
  },
)

declare module '../../../kernel/events/events.js' {
  interface EventPayloads extends PayloadsOf<typeof SDK_GENERATIONS_EVENTS> {}
}
