import { defineRoute } from '../../../../kernel/http/define-route.js'
import { servedDocument } from '../sdk-generations.service.js'
import { CreateSdkGenerationBody, SdkGeneration } from '../sdk-generations.schemas.js'

export const createSdkGeneration = defineRoute({
  operationId: 'createSdkGeneration',
  method: 'POST',
  url: '/sdk-generations',
  module: 'developer',
  scope: 'write',
  summary: 'Generate an SDK',
  description:
    'Generates the official client of `language` from the OpenAPI document this server serves now, as a package: the generated code with the ' +
    'hand-written runtime, `package_name` and `version` written into its manifest (package.json, pyproject.toml, composer.json or the gemspec), ' +
    'zipped under one folder with GENERATION.json (what it was made from). 202 with `status` queued; a job runs it (event `sdk_generation.succeeded` ' +
    'or `.failed`), then `archive.url` downloads it without a key for 24 hours (410 after). At most 5 generations queued or running per workspace.',
  schema: { body: CreateSdkGenerationBody, response: { 202: SdkGeneration } },
  errors: ['sdk_generations_busy', 'sdk_generator_unavailable'],
  handler: ({ body, principal, services, request }) => services.developerSdk.create(principal, body, () => servedDocument(request.server, request.headers.authorization)),
})
