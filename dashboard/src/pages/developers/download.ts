import { problemOf } from '../../api/problem.js'

/**
 * Fetches a download link the API handed out (outside the API's base URL, the link itself being the
 * credential) from this origin, and returns the body; a refusal becomes the API's problem.
 */
export async function fetchLink(link: string): Promise<Blob> {
  const u = new URL(link, location.origin)
  let res: Response
  try {
    res = await fetch(u.pathname + u.search)
  } catch (err) {
    throw await problemOf(null, err)
  }
  if (!res.ok) throw await problemOf(res)
  return res.blob()
}
