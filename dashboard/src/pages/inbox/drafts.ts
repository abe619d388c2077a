import { useEffect, useRef, useState } from 'preact/hooks'
import { useWorkspace } from '../../ui/workspace.js'
import { draftKey, readDraft, sweep, writeDraft } from './draft-store.js'

/**
 * The reply box's text and private flag for one conversation, saved as they change (debounced a little)
 * and read back when the conversation is opened again. `clear()` after sending.
 */
export function useDraft(conversationId: string) {
  const { membership } = useWorkspace()
  const key = draftKey(membership.workspace_id, membership.mode, membership.member_id, conversationId)
  const [state, setState] = useState(() => {
    sweep()
    const d = readDraft(key)
    return { text: d?.text ?? '', private: d?.private ?? false, restored: !!d }
  })
  const latest = useRef(state)
  latest.current = state
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  const save = () => writeDraft(key, latest.current.text, latest.current.private)
  useEffect(() => {
    clearTimeout(timer.current)
    timer.current = setTimeout(save, 250)
  }, [state.text, state.private])
  // Written at once when the conversation closes or the page goes away (a debounced save could be lost).
  useEffect(() => {
    const flush = () => {
      clearTimeout(timer.current)
      save()
    }
    window.addEventListener('pagehide', flush)
    return () => {
      window.removeEventListener('pagehide', flush)
      flush()
    }
  }, [key])
  return {
    text: state.text,
    isPrivate: state.private,
    /** The draft was read back from storage (shown as a hint until the text changes). */
    restored: state.restored,
    setText: (text: string) => setState((s) => ({ ...s, text, restored: false })),
    setPrivate: (p: boolean) => setState((s) => ({ ...s, private: p })),
    clear: () => {
      clearTimeout(timer.current)
      setState((s) => ({ ...s, text: '', restored: false }))
      latest.current = { ...latest.current, text: '', restored: false }
      writeDraft(key, '', false)
    },
  }
}
