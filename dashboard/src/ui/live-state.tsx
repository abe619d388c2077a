import { t } from '../i18n/index.js'
import { useLiveState } from './live.js'

/** Whether the page is following the workspace live ("Live"), or trying to again after a drop. */
export function LiveState() {
  const state = useLiveState()
  return (
    <span class={`badge badge-${state === 'live' ? 'good' : 'warn'} live-state`} role="status" data-state={state} title={state === 'live' ? t('ui.live.hint') : undefined}>
      {t(state === 'live' ? 'ui.live.live' : state === 'connecting' ? 'ui.live.connecting' : 'ui.live.reconnecting')}
    </span>
  )
}
