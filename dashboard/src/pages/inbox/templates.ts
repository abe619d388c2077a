import type { components } from '../../api/schema.js'

// The template picker's logic (what opens it, what matches, how placeholders fill); its list is template-picker.tsx.

export type ReplyTemplate = components['schemas']['ReplyTemplate']
type Conversation = components['schemas']['Conversation']

/** The text after a leading `/` while it is still one word (the picker's query), else null. */
export function pickerQuery(text: string): string | null {
  const m = /^\/(\S*)$/.exec(text)
  return m ? m[1]!.toLowerCase() : null
}

/** Templates whose shortcut starts with the query come first, then those whose name contains it; each by name. */
export function matchTemplates(templates: ReplyTemplate[], query: string): ReplyTemplate[] {
  const q = query.toLowerCase()
  const sorted = [...templates].sort((a, b) => a.name.localeCompare(b.name))
  const byShortcut = sorted.filter((t) => t.shortcut?.toLowerCase().startsWith(q))
  const byName = sorted.filter((t) => !byShortcut.includes(t) && t.name.toLowerCase().includes(q))
  return [...byShortcut, ...byName].slice(0, 8)
}

/**
 * A template's content with its placeholders filled from the conversation; a placeholder the contact
 * has no value for stays as written, so the agent sees what still needs filling in.
 */
export function fillTemplate(content: string, conv: Conversation): string {
  const values: Record<string, string | null | undefined> = {
    'contact.name': conv.contact.name,
    'contact.email': conv.contact.email,
    'contact.phone': conv.contact.phone,
    'conversation.subject': conv.subject,
  }
  return content.replace(/\{\{\s*([a-z_.]+)\s*\}\}/g, (all, name: string) => values[name] ?? all)
}
