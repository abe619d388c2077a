import { Route, Router } from 'preact-iso'
import AgentPage from './agent.page.js'
import Agents from './agents.page.js'
import Approvals from './approvals.page.js'
import RunPage from './run.page.js'

/** /dashboard/agents: agents, their runs (step timelines) and the approvals waiting for a person. */
export default function AgentsArea() {
  return (
    <Router>
      <Route path="/" component={Agents} />
      <Route path="/:id" component={AgentPage} />
      <Route path="/:id/approvals" component={Approvals} />
      <Route path="/:id/runs/:runId" component={RunPage} />
    </Router>
  )
}
