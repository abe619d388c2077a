import { defineRoute } from '../../../../kernel/http/define-route.js'
import { ListTerraformResourcesQuery, TerraformResourceList } from '../terraform.schemas.js'

export const listTerraformResources = defineRoute({
  operationId: 'listTerraformResources',
  method: 'GET',
  url: '/terraform-resources',
  module: 'developer',
  scope: 'read',
  summary: 'List Terraform resource types',
  description:
    'The resource types a Terraform provider for this API manages (svc_bot, svc_knowledge_base, svc_agent, svc_webhook_endpoint, ' +
    'svc_oauth_app, svc_voice_number, svc_reply_template, svc_tag, svc_retention_policy), each with its attributes read from the ' +
    'OpenAPI schemas (type, required, optional, computed, sensitive, force_new), its import id format and the operations behind it. ' +
    'With `format=hcl`: the workspace’s existing objects as a Terraform configuration for the generic REST provider Mastercard/restapi ' +
    '(text/plain): the provider block, an `import` block and a `restapi_object` per object, and data sources for the types the API reads only as a list.',
  schema: { querystring: ListTerraformResourcesQuery, response: { 200: TerraformResourceList } },
  media: { type: 'text/plain', description: 'with `?format=hcl`: the workspace’s objects as HCL for the Mastercard/restapi provider', ranges: false },
  handler: async ({ query, principal, services, request, reply }) => {
    if (query.format !== 'hcl') return services.terraform.list(principal, query, request.server)
    const text = await services.terraform.hcl(principal, query, request.server)
    // The text is the answer: sent here, and the reply handed back so nothing else is serialised.
    return reply.type('text/plain; charset=utf-8').header('Content-Disposition', 'inline; filename="svc-resources.tf"').send(text) as never
  },
})
