import { defineRoute } from '../../../../kernel/http/define-route.js'
import { ListSdkGenerationsQuery, SdkGenerationList } from '../sdk-generations.schemas.js'

export const listSdkGenerations = defineRoute({
  operationId: 'listSdkGenerations',
  method: 'GET',
  url: '/sdk-generations',
  module: 'developer',
  scope: 'read',
  summary: 'List SDK generations',
  description:
    'Newest first: each with its status, language, package name and version, the SHA-256 of the OpenAPI document it was generated from, ' +
    'and once succeeded the archive (size, SHA-256, download link valid 24 hours). Filter by `language` and `status`.',
  schema: { querystring: ListSdkGenerationsQuery, response: { 200: SdkGenerationList } },
  handler: ({ query, principal, services }) => services.developerSdk.list(principal, query),
})
