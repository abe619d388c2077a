import { Empty, Page } from '../../ui/components.js'

// Replaced by the knowledge area's pages.
export default function KnowledgeArea() {
  return (
    <Page title="Knowledge">
      <Empty title="Knowledge" />
    </Page>
  )
}
