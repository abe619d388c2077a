import { Empty, Page } from '../../ui/components.js'

// Replaced by the compliance area's pages.
export default function ComplianceArea() {
  return (
    <Page title="Compliance">
      <Empty title="Compliance" />
    </Page>
  )
}
