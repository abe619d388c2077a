import { defineModule } from '../../../kernel/module.js'
import { listTerraformResources } from './routes/list-terraform-resources.route.js'
import { TerraformService } from './terraform.service.js'

/** The Terraform part of the developer module (merged into `developer` by the lead once all parts exist). */
export const terraformModule = defineModule({
  name: 'developer-terraform',
  // The HCL export lists each type's objects through its module's service.
  uses: ['bots', 'knowledge', 'agents', 'webhooks', 'voice', 'inbox', 'compliance'],
  migrations: [],
  routes: [listTerraformResources],
  init(kernel, services) {
    services.terraform = new TerraformService(kernel, services)
  },
})
