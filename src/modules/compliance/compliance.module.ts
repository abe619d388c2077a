import { defineModule } from '../../kernel/module.js'
import { COMPLIANCE_ERRORS } from './compliance.errors.js'
import { COMPLIANCE_EVENTS } from './compliance.events.js'
import { dsarDownloads } from './compliance.downloads.js'
import { complianceMigrations } from './compliance.migrations.js'
import { compliancePrivacy } from './compliance.privacy.js'
import { ComplianceService } from './compliance.service.js'
import { createDsarRequest } from './routes/create-dsar-request.route.js'
import { createComplianceEvidence } from './routes/create-compliance-evidence.route.js'
import { downloadComplianceEvidence } from './routes/download-compliance-evidence.route.js'
import { exportDsarRequest } from './routes/export-dsar-request.route.js'
import { getDsarRequest } from './routes/get-dsar-request.route.js'
import { getRetentionPolicies } from './routes/get-retention-policies.route.js'
import { listAuditLog } from './routes/list-audit-log.route.js'
import { listComplianceEvidence } from './routes/list-compliance-evidence.route.js'
import { listDsarRequests } from './routes/list-dsar-requests.route.js'
import { redactPii } from './routes/redact-pii.route.js'
import { updateRetentionPolicies } from './routes/update-retention-policies.route.js'

export const complianceModule = defineModule({
  name: 'compliance',
  uses: ['workspaces', 'inbox', 'webhooks'],
  errors: COMPLIANCE_ERRORS,
  migrations: complianceMigrations,
  routes: [
    listAuditLog,
    listDsarRequests,
    createDsarRequest,
    getDsarRequest,
    exportDsarRequest,
    listComplianceEvidence,
    createComplianceEvidence,
    downloadComplianceEvidence,
    redactPii,
    getRetentionPolicies,
    updateRetentionPolicies,
  ],
  init(kernel, services) {
    kernel.events.declare(COMPLIANCE_EVENTS)
    const compliance = new ComplianceService(kernel, services)
    kernel.jobs.register(compliance.processJob)
    kernel.jobs.register(compliance.exportJob)
    kernel.jobs.register(compliance.workerJob)
    services.compliance = compliance
  },
  callbacks: async (app, kernel) => {
    await app.register(dsarDownloads(kernel))
  },
  maintenance: (_kernel, services) => services.compliance.schedule(),
  health: (_kernel, services) => services.compliance.health(),
  privacy: compliancePrivacy,
})
