import { useEffect, useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import { useResource } from '../../ui/hooks.js'
import type { Conversation } from './inbox-shared.js'
import { optionId, PICKER_ID } from './template-picker.js'
import { fillTemplate, matchTemplates, pickerQuery, type ReplyTemplate } from './templates.js'

/**
 * The template picker's state for the reply box: open while the text is `/` plus one word (and not
 * dismissed with Escape), the templates (read once, when the picker first opens), the matches and the
 * highlighted one. `onKeyDown` handles the picker's keys and says whether it did; `boxProps` are the
 * reply box's ARIA attributes (aria-controls, aria-activedescendant, aria-expanded).
 */
export function useTemplatePicker(conv: Conversation, text: string, insert: (content: string) => void) {
  const query = pickerQuery(text)
  const [dismissed, setDismissed] = useState<string | null>(null)
  const [wanted, setWanted] = useState(false)
  const [active, setActive] = useState(0)
  const open = query !== null && dismissed !== text
  useEffect(() => {
    if (open) setWanted(true)
  }, [open])
  useEffect(() => setActive(0), [query])
  const templates = useResource<ReplyTemplate[]>(
    async (api) => {
      if (!wanted) return []
      const all: ReplyTemplate[] = []
      let cursor: string | undefined
      for (let i = 0; i < 5; i++) {
        const p = await ok(api.client.GET('/inbox/templates', { params: { query: { limit: 100, cursor } } }))
        all.push(...p.data)
        if (!p.has_more || !p.next_cursor) break
        cursor = p.next_cursor
      }
      return all
    },
    [wanted],
  )
  const matches = open ? matchTemplates(templates.data ?? [], query) : []
  const pick = (t: ReplyTemplate) => {
    setDismissed(null)
    insert(fillTemplate(t.content, conv))
  }
  const onKeyDown = (e: KeyboardEvent): boolean => {
    if (!open) return false
    if (e.key === 'Escape') {
      setDismissed(text)
    } else if (e.key === 'ArrowDown' && matches.length > 0) {
      setActive((i) => (i + 1) % matches.length)
    } else if (e.key === 'ArrowUp' && matches.length > 0) {
      setActive((i) => (i - 1 + matches.length) % matches.length)
    } else if (e.key === 'Enter' && !e.shiftKey && matches[active]) {
      pick(matches[active]!)
    } else return false
    e.preventDefault()
    e.stopPropagation()
    return true
  }
  const listed = open && matches.length > 0
  return {
    open,
    onKeyDown,
    boxProps: {
      'aria-controls': listed ? PICKER_ID : undefined,
      'aria-activedescendant': listed ? optionId(active) : undefined,
      'aria-autocomplete': 'list' as const,
    },
    listProps: { matches, active, onPick: pick, loading: templates.loading || !wanted },
  }
}
