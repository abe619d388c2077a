import { AppError } from '../../kernel/errors.js'

/**
 * PostgreSQL TEXT cannot hold U+0000: such input would fail in SQL as a 500. It is bad input, so it is
 * refused as 422 before any query (SQLite would store it; refusing on both keeps the engines alike).
 */
export function assertNoNul(value: unknown, pointer: string): void {
  const found = findNul(value, pointer)
  if (found) {
    throw new AppError('validation_failed', `${found} contains a NUL character (U+0000).`, { errors: [{ pointer: found, detail: 'must not contain U+0000' }] })
  }
}

function findNul(value: unknown, pointer: string): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? pointer : null
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const hit = findNul(value[i], `${pointer}/${i}`)
      if (hit) return hit
    }
    return null
  }
  if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k.includes('\u0000')) return `${pointer}/${k}`
      const hit = findNul(v, `${pointer}/${k}`)
      if (hit) return hit
    }
  }
  return null
}

/** Our ids are `prefix_ULID`; anything else cannot exist, so it is not found without asking the database. */
export const isWellFormedId = (id: string): boolean => /^[a-z]{2,5}_[0-9A-Za-z]{1,40}$/.test(id)
