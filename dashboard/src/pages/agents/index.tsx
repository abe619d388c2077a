import { Empty, Page } from '../../ui/components.js'

// Replaced by the agents area's pages.
export default function AgentsArea() {
  return (
    <Page title="Agents">
      <Empty title="Agents" />
    </Page>
  )
}
