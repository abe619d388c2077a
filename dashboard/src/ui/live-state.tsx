import { useLiveState } from './live.js'

const LABEL = { connecting: 'Connecting…', live: 'Live', reconnecting: 'Reconnecting…' } as const

/** Whether the page is following the workspace live ("Live"), or trying to again after a drop. */
export function LiveState() {
  const state = useLiveState()
  return (
    <span class={`badge badge-${state === 'live' ? 'good' : 'warn'} live-state`} role="status" data-state={state} title={state === 'live' ? 'Changes appear as they happen' : undefined}>
      {LABEL[state]}
    </span>
  )
}
