import { Empty, Page } from '../../ui/components.js'

// Replaced by the developers area's pages.
export default function DevelopersArea() {
  return (
    <Page title="Developers">
      <Empty title="Developers" />
    </Page>
  )
}
