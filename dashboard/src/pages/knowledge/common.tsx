import { useEffect, useRef } from 'preact/hooks'
import type { components } from '../../api/schema.js'
import { Badge, type Tone } from '../../ui/components.js'

export type KnowledgeBase = components['schemas']['KnowledgeBase']
export type KnowledgeDocument = components['schemas']['KnowledgeDocument']
export type KnowledgeCrawl = components['schemas']['KnowledgeCrawl']

const DOC_TONE: Record<string, Tone> = { queued: 'neutral', processing: 'info', ready: 'good', failed: 'bad', completed: 'good', running: 'info' }

export function StatusBadge({ status }: { status: string }) {
  return <Badge tone={DOC_TONE[status] ?? 'neutral'}>{status}</Badge>
}

/** Calls `tick` every `ms` while `active` (a document processing, a crawl running); stops on unmount. */
export function usePoll(active: boolean, tick: () => Promise<unknown> | void, ms = 1000) {
  const fn = useRef(tick)
  fn.current = tick
  useEffect(() => {
    if (!active) return
    let stopped = false
    let timer: ReturnType<typeof setTimeout>
    const loop = async () => {
      try {
        await fn.current()
      } catch {
        // the next tick tries again; the page shows the last state it has
      }
      if (!stopped) timer = setTimeout(loop, ms)
    }
    timer = setTimeout(loop, ms)
    return () => {
      stopped = true
      clearTimeout(timer)
    }
  }, [active, ms])
}

/** An excerpt whose matched words the API marks «like this»: shown as <mark>. */
export function Excerpt({ text }: { text: string }) {
  const parts = text.split(/«([^»]*)»/)
  return <>{parts.map((p, i) => (i % 2 === 1 ? <mark>{p}</mark> : p))}</>
}

export const formatBytes = (n: number): string => (n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1024 / 1024).toFixed(1)} MB`)
