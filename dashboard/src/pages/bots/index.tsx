import { Empty, Page } from '../../ui/components.js'

// Replaced by the bots area's pages.
export default function BotsArea() {
  return (
    <Page title="Bots">
      <Empty title="Bots" />
    </Page>
  )
}
