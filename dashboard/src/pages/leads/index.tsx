import { Empty, Page } from '../../ui/components.js'

// Replaced by the leads area's pages.
export default function LeadsArea() {
  return (
    <Page title="Leads">
      <Empty title="Leads" />
    </Page>
  )
}
