/**
 * Reply drafts kept in localStorage per workspace, mode, member and conversation, so that switching
 * conversations, closing the tab or signing out and in again loses nothing typed. Only the text (and
 * whether it is a private note) is kept; sending clears it. The member is part of the key: two people
 * sharing a browser do not see each other's drafts.
 */
const PREFIX = 'svc.inbox.draft.'
const MAX_AGE_MS = 30 * 24 * 3600 * 1000

export interface StoredDraft {
  text: string
  private: boolean
  saved_at: string
}

export const draftKey = (workspaceId: string, mode: string, memberId: string, conversationId: string) => `${PREFIX}${workspaceId}:${mode}:${memberId}:${conversationId}`

export function readDraft(key: string): StoredDraft | null {
  try {
    const raw = localStorage.getItem(key)
    if (!raw) return null
    const d = JSON.parse(raw) as StoredDraft
    if (typeof d.text !== 'string' || Date.now() - Date.parse(d.saved_at) > MAX_AGE_MS) return null
    return d
  } catch {
    return null
  }
}

export function writeDraft(key: string, text: string, isPrivate: boolean): void {
  try {
    if (text.trim() === '') localStorage.removeItem(key)
    else localStorage.setItem(key, JSON.stringify({ text, private: isPrivate, saved_at: new Date().toISOString() } satisfies StoredDraft))
  } catch {
    // Storage full or disabled: the draft lives in the page only.
  }
}

/** Drops drafts older than MAX_AGE_MS (once per page load), so abandoned ones do not pile up. */
let swept = false
export function sweep(): void {
  if (swept) return
  swept = true
  try {
    for (let i = localStorage.length - 1; i >= 0; i--) {
      const k = localStorage.key(i)
      if (k?.startsWith(PREFIX) && !readDraft(k)) localStorage.removeItem(k)
    }
  } catch {
    // nothing to sweep
  }
}
