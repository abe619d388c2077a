import { Route, Router } from 'preact-iso'
import { SubNav } from '../../ui/sub-nav.js'
import BaseDetail from './base-detail.page.js'
import Bases from './bases.page.js'
import Gaps from './gaps.page.js'
import Search from './search.page.js'
import { t } from '../../i18n/index.js'

const links = () => [
  { href: '/dashboard/knowledge/bases', label: t('knowledge.index.bases') },
  { href: '/dashboard/knowledge/search', label: t('knowledge.index.search') },
  { href: '/dashboard/knowledge/gaps', label: t('knowledge.index.gaps') },
]

/** /dashboard/knowledge: bases and their documents (upload, crawl), search with citations, knowledge gaps. */
export default function KnowledgeArea() {
  return (
    <>
      <SubNav label={t('knowledge.index.knowledge')} links={links()} />
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
