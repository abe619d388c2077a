import { Route, Router } from 'preact-iso'
import { SubNav } from '../../ui/sub-nav.js'
import BaseDetail from './base-detail.page.js'
import Bases from './bases.page.js'
import Gaps from './gaps.page.js'
import Search from './search.page.js'

const LINKS = [
  { href: '/dashboard/knowledge/bases', label: 'Bases' },
  { href: '/dashboard/knowledge/search', label: 'Search' },
  { href: '/dashboard/knowledge/gaps', label: 'Gaps' },
]

/** /dashboard/knowledge: bases and their documents (upload, crawl), search with citations, knowledge gaps. */
export default function KnowledgeArea() {
  return (
    <>
      <SubNav label="Knowledge" links={LINKS} />
      <Router>
        <Route path="/" component={Bases} />
        <Route path="/bases" component={Bases} />
        <Route path="/bases/:id" component={BaseDetail} />
        <Route path="/search" component={Search} />
        <Route path="/gaps" component={Gaps} />
      </Router>
    </>
  )
}
