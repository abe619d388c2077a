import type { GenerateRequest } from './ai.types.js'

const PLACEHOLDER = /\{\{\s*([a-z][a-z0-9_]*(?:\.[a-z][a-z0-9_]*)*)\s*\}\}/gi

/** Names used in `{{…}}` placeholders of a text, in order of first appearance. */
export function placeholdersOf(text: string): string[] {
  return [...new Set([...text.matchAll(PLACEHOLDER)].map((m) => m[1].toLowerCase()))]
}

/** Fill known placeholders; unknown or empty ones stay visible so a person notices before sending. */
export function fillPlaceholders(text: string, variables: GenerateRequest['variables'] = {}): string {
  return text.replace(PLACEHOLDER, (whole, name: string) => {
    const v = variables[name.toLowerCase()]
    return v ? v : whole
  })
}

export const excerptOf = (text: string, max = 280): string => (text.length <= max ? text : `${text.slice(0, max - 1)}…`)
