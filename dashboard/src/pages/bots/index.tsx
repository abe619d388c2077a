import { Route, Router } from 'preact-iso'
import BotDetail from './bot-detail.page.js'
import BotList from './bot-list.page.js'

/** /dashboard/bots: the bots, and each bot's draft, versions, publishing and test chat. */
export default function BotsArea() {
  return (
    <Router>
      <Route path="/" component={BotList} />
      <Route path="/:id" component={BotDetail} />
    </Router>
  )
}
