import { Empty, Page } from '../ui/components.js'

export default function NotFound() {
  return (
    <Page title="Page not found">
      <Empty title="There is no dashboard page at this address.">
        <a href="/dashboard">Back to the overview</a>
      </Empty>
    </Page>
  )
}
