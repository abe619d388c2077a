import { AppError } from './errors.js'

/**
 * Looks up a resource the request body names. The path names the resource an operation acts on, and its
 * absence is a 404; an id in the body is input like any other field, so its absence is the request's own
 * error: 422 `invalid_reference` with a pointer to the field (docs/api-conventions.md "Ids in a body").
 * A more precise 422 the lookup raises itself (`assignee_not_member`, `unknown_tag`) passes through.
 */
export async function referenced<T>(pointer: string, lookup: () => Promise<T>): Promise<T> {
  try {
    return await lookup()
  } catch (err) {
    if (err instanceof AppError && err.code === 'resource_not_found') throw invalidReference(pointer, err.detail)
    throw err
  }
}

/** The 422 of an id in the body that names nothing here (`detail`: what was not found). */
export function invalidReference(pointer: string, detail: string): AppError {
  return new AppError('invalid_reference', `${pointer}: ${detail}`, { errors: [{ pointer, detail: 'names nothing in this workspace and mode' }] })
}
