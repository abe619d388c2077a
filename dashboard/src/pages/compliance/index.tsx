import { Route, Router, useLocation } from 'preact-iso'
import { useEffect } from 'preact/hooks'
import { Loading } from '../../ui/components.js'
import { SubNav, useIsAdmin } from '../../ui/sub-nav.js'
import AuditLog from './audit-log.page.js'
import DsarDetail from './dsar-detail.page.js'
import DsarList from './dsar-list.page.js'
import EvidencePage from './evidence.page.js'
import PiiRedaction from './pii-redaction.page.js'
import Retention from './retention.page.js'
import './compliance.css'
import { t } from '../../i18n/index.js'

const AUDIT = '/dashboard/compliance/audit-log'

/** /dashboard/compliance: audit log, data-subject requests, retention policies, PII redaction, evidence reports. */
export default function ComplianceArea() {
  return (
    <>
      <SubNav
        label={t('compliance.index.compliance')}
        links={[
          { href: AUDIT, label: t('compliance.auditLog.auditLog'), admin: true },
          { href: '/dashboard/compliance/dsar', label: t('compliance.index.dataRequests'), admin: true },
          { href: '/dashboard/compliance/retention', label: t('compliance.index.retention') },
          { href: '/dashboard/compliance/pii', label: t('compliance.index.piiRedaction') },
          { href: '/dashboard/compliance/evidence', label: t('compliance.evidence.evidence'), admin: true },
        ]}
      />
      <Router>
        <Route path="/" component={ToAuditLog} />
        <Route path="/audit-log" component={AuditLog} />
        <Route path="/dsar" component={DsarList} />
        <Route path="/dsar/:id" component={DsarDetail} />
        <Route path="/retention" component={Retention} />
        <Route path="/pii" component={PiiRedaction} />
        <Route path="/evidence" component={EvidencePage} />
      </Router>
    </>
  )
}

function ToAuditLog() {
  const { route } = useLocation()
  const admin = useIsAdmin()
  useEffect(() => route(admin ? AUDIT : '/dashboard/compliance/retention', true), [])
  return <Loading />
}
