import type { JobDefinition } from '../../kernel/jobs/jobs.js'
import type { Kernel } from '../../kernel/kernel.js'
import type { ModuleHealth } from '../../kernel/module.js'
import type { Services } from '../../kernel/services.js'
import { AuditLogService } from './audit-log.service.js'
import * as repo from './compliance.repository.js'
import { COMPLIANCE_RETENTION } from './compliance.retention.js'
import { DsarService, type DsarJobPayload } from './dsar.service.js'
import { EvidenceService } from './evidence.service.js'
import { complianceWorkerJob, scheduleNext } from './jobs/compliance-worker.job.js'
import { exportDsarJob } from './jobs/export-dsar.job.js'
import { processDsarJob } from './jobs/process-dsar.job.js'
import { PiiRedactionService } from './pii-redaction.service.js'
import { RetentionService } from './retention.service.js'

/** `services.compliance`: one service per resource, e.g. `services.compliance.dsar.create(principal, body)`. */
export class ComplianceService {
  readonly audit: AuditLogService
  readonly dsar: DsarService
  readonly retention: RetentionService
  readonly evidence: EvidenceService
  readonly pii: PiiRedactionService
  readonly processJob: JobDefinition<DsarJobPayload>
  readonly exportJob: JobDefinition<DsarJobPayload>
  readonly workerJob: JobDefinition<Record<string, never>>

  constructor(
    private readonly k: Kernel,
    services: Services,
  ) {
    this.audit = new AuditLogService(k)
    this.dsar = new DsarService(k, () => ({ process: this.processJob, exporter: this.exportJob }))
    this.retention = new RetentionService(k, COMPLIANCE_RETENTION, () => services.webhooks?.outbox)
    this.evidence = new EvidenceService(k, services, this.audit)
    this.pii = new PiiRedactionService(k, services)
    this.processJob = processDsarJob(k, services, () => this.dsar)
    this.exportJob = exportDsarJob(k, services)
    this.workerJob = complianceWorkerJob(k, this.retention, this.evidence, () => this.workerJob)
  }

  /** Keeps the recurring worker queued (called by every worker's maintenance tick). */
  schedule(): Promise<void> {
    return scheduleNext(this.k, this.workerJob)
  }

  async health(): Promise<ModuleHealth> {
    await repo.probe(this.k.db)
    return { status: 'ok', retention_classes: this.retention.classes().length }
  }
}

declare module '../../kernel/services.js' {
  interface Services {
    compliance: ComplianceService
  }
}
