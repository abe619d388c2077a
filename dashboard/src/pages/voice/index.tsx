import { Route, Router, useLocation } from 'preact-iso'
import { useEffect } from 'preact/hooks'
import { Loading } from '../../ui/components.js'
import { SubNav } from '../../ui/sub-nav.js'
import CallDetail from './call-detail.page.js'
import CallList from './call-list.page.js'
import NumberDetail from './number-detail.page.js'
import NumberList from './number-list.page.js'
import './voice.css'
import { t } from '../../i18n/index.js'

export const CALLS = '/dashboard/voice/calls'

/** /dashboard/voice: calls (list, one call with its recording and timed transcript) and phone numbers (list, one number with its calls). */
export default function VoiceArea() {
  return (
    <>
      <SubNav
        label={t('voice.index.voice')}
        links={[
          { href: CALLS, label: t('voice.callList.calls') },
          { href: '/dashboard/voice/numbers', label: t('voice.index.numbers') },
        ]}
      />
      <Router>
        <Route path="/" component={ToCalls} />
        <Route path="/calls" component={CallList} />
        <Route path="/calls/:id" component={CallDetail} />
        <Route path="/numbers" component={NumberList} />
        <Route path="/numbers/:id" component={NumberDetail} />
      </Router>
    </>
  )
}

function ToCalls() {
  const { route } = useLocation()
  useEffect(() => route(CALLS, true), [])
  return <Loading />
}
