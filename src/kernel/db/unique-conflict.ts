import { AppError, type ErrorCode } from '../errors.js'
import { isUniqueViolation } from './database.js'

export interface UniqueField {
  /** Matches the violated constraint (its name or the engine's message); omit for the default field. */
  constraint?: RegExp
  pointer: string
  detail: string
  /** The problem's `detail`; defaults to `detail`. */
  message?: string
}

/**
 * Run `work`; a unique-constraint violation becomes a 409-style problem `code` whose pointer names the
 * field that collided (the first `fields` entry whose `constraint` matches, else the last one).
 */
export async function uniqueConflict<T>(work: () => Promise<T>, code: ErrorCode, fields: UniqueField[]): Promise<T> {
  try {
    return await work()
  } catch (err) {
    if (!isUniqueViolation(err)) throw err
    const text = `${(err as Error).message} ${(err as { constraint?: string }).constraint ?? ''}`
    const field = fields.find((f) => f.constraint?.test(text)) ?? fields[fields.length - 1]
    throw new AppError(code, field.message ?? field.detail, { errors: [{ pointer: field.pointer, detail: field.detail }] })
  }
}
