import { Route, Router } from 'preact-iso'
import { EditAgent, NewAgent } from './agent-edit.page.js'
import AgentPage from './agent.page.js'
import Agents from './agents.page.js'
import Approvals from './approvals.page.js'
import RunPage from './run.page.js'
import './agents.css'

/** /dashboard/agents: agents (create, edit), their runs (step timelines) and the approvals waiting for a person. */
export default function AgentsArea() {
  return (
    <Router>
      <Route path="/" component={Agents} />
      <Route path="/new" component={NewAgent} />
      <Route path="/:id" component={AgentPage} />
      <Route path="/:id/edit" component={EditAgent} />
      <Route path="/:id/approvals" component={Approvals} />
      <Route path="/:id/runs/:runId" component={RunPage} />
    </Router>
  )
}
