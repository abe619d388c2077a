import { defineErrors, type ErrorSpec } from '../../../kernel/errors.js'

/** Error codes of crawls (merged into the knowledge module's catalogue). */
export const CRAWL_ERRORS = defineErrors('knowledge', {
  // The start URL is refused by the outbound address policy (private, loopback, link-local, metadata, unresolvable).
  knowledge_crawl_url_forbidden: { status: 422, title: 'Crawl URL not allowed' },
  // A crawl of the same knowledge base is queued or running.
  knowledge_crawl_in_progress: { status: 409, title: 'Crawl already in progress' },
})

declare module '../../../kernel/errors.js' {
  interface ErrorCodes extends Record<keyof typeof CRAWL_ERRORS, ErrorSpec> {}
}
