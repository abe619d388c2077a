import { Empty, Page } from '../../ui/components.js'

// Replaced by the inbox area's pages.
export default function InboxArea() {
  return (
    <Page title="Inbox">
      <Empty title="Inbox" />
    </Page>
  )
}
