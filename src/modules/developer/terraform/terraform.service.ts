import type { FastifyInstance } from 'fastify'
import { iso } from '../../../kernel/clock.js'
import type { PageResult } from '../../../kernel/http/pagination.js'
import type { Kernel } from '../../../kernel/kernel.js'
import type { Services } from '../../../kernel/services.js'
import type { Principal, Tenant } from '../../../kernel/tenant.js'
import { servedDocument } from '../snapshots/current-document.js'
import { terraformResources, type TerraformResource } from './terraform-attributes.js'
import { operationsOf } from '../snapshots/openapi-walk.js'
import { TERRAFORM_RESOURCES } from './terraform-catalog.js'
import { RESTAPI_PROVIDER, renderHcl } from './terraform-hcl.js'
import { restMapping } from './terraform-restapi.js'
import { LISTERS } from './terraform-objects.js'
import type { ListTerraformResourcesQueryT } from './terraform.schemas.js'

const TYPE_SHAPE = /^svc_[a-z_]{1,60}$/

/**
 * `services.terraform`: the resource types a Terraform provider manages, read from the served OpenAPI
 * document (derived once per app: the document does not change), and the workspace's objects as HCL.
 */
export class TerraformService {
  private readonly derived = new WeakMap<object, TerraformResource[]>()

  constructor(
    private readonly k: Kernel,
    private readonly services: Services,
  ) {}

  /** The resource types, sorted by type (the list key). */
  resources(server: FastifyInstance): TerraformResource[] {
    const served = servedDocument(this.k, server)
    let list = this.derived.get(served)
    if (!list) {
      list = terraformResources(served.document).sort((a, b) => a.type.localeCompare(b.type))
      this.derived.set(served, list)
    }
    return list
  }

  list(tenant: Tenant, q: ListTerraformResourcesQueryT, server: FastifyInstance): Promise<PageResult<TerraformResource>> {
    const all = this.resources(server).filter((r) => !q.type || r.type === q.type)
    return this.k.paginate({
      list: 'listTerraformResources',
      tenant,
      filters: { type: q.type },
      query: q,
      keyShape: TYPE_SHAPE,
      fetch: async ({ after, limit }) => all.filter((r) => after === null || r.type > after).slice(0, limit + 1),
      key: (r) => r.type,
      view: (r) => r,
    })
  }

  /** The workspace's existing objects of every type (or `q.type`) as import and resource blocks. */
  async hcl(principal: Principal, q: ListTerraformResourcesQueryT, server: FastifyInstance): Promise<string> {
    const resources = this.resources(server).filter((r) => !q.type || r.type === q.type)
    const ops = operationsOf(servedDocument(this.k, server).document)
    const groups = []
    for (const resource of resources) {
      const lister = LISTERS[resource.type]
      const mapping = restMapping(
        resource,
        TERRAFORM_RESOURCES.find((d) => d.type === resource.type),
        ops,
      )
      if (lister && mapping) groups.push({ resource, mapping, ...(await lister(this.services, principal)) })
    }
    return renderHcl({
      header: [
        `Terraform configuration of the objects of workspace ${principal.workspaceId} (${principal.mode === 'live' ? 'live' : 'sandbox'}),`,
        `generated ${iso(this.k.clock.now())} by GET ${principal.mode === 'live' ? '/v2' : '/sandbox/v2'}/terraform-resources?format=hcl,`,
        `for the generic REST provider ${RESTAPI_PROVIDER.source} (registry.terraform.io). Import blocks need Terraform 1.5 or later.`,
        'Secrets (signing and client secrets) are never exported; computed attributes are left out. Then:',
        '  TF_VAR_svc_api_key=svc_… terraform init && terraform plan',
      ],
      uri: `${this.k.config.publicUrl}${principal.mode === 'live' ? '/v2' : '/sandbox/v2'}`,
      groups,
    })
  }
}

declare module '../../../kernel/services.js' {
  interface Services {
    terraform: TerraformService
  }
}
