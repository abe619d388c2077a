import type { FastifyRequest } from 'fastify'
import type { PageResult } from '../../kernel/http/pagination.js'
import type { ConversationT } from './inbox.schemas.js'

/**
 * `Svc-Api-Version` pins the response shape. lead_score became `{ score, factors }` in 2.4.0; a client
 * pinned below that gets the plain number until v3.0. The header is validated by the route schema
 * (VersionHeaders), so it is `major.minor.patch` when present.
 */
function pinnedBefore240(request: FastifyRequest): boolean {
  const raw = request.headers['svc-api-version']
  if (typeof raw !== 'string') return false
  const [major, minor] = raw.split('.').map(Number)
  return major < 2 || (major === 2 && minor < 4)
}

export function conversationForVersion(request: FastifyRequest, c: ConversationT): ConversationT {
  if (!pinnedBefore240(request) || typeof c.lead_score === 'number') return c
  return { ...c, lead_score: c.lead_score.score }
}

export function pageForVersion(request: FastifyRequest, page: PageResult<ConversationT>): PageResult<ConversationT> {
  if (!pinnedBefore240(request)) return page
  return { ...page, data: page.data.map((c) => conversationForVersion(request, c)) }
}
