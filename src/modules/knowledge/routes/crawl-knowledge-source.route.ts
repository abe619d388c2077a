import { defineRoute } from '../../../kernel/http/define-route.js'
import { CrawlKnowledgeSourceBody, KnowledgeCrawl } from '../crawl/crawl.schemas.js'

export const crawlKnowledgeSource = defineRoute({
  operationId: 'crawlKnowledgeSource',
  method: 'POST',
  url: '/knowledge/crawl',
  module: 'knowledge',
  scope: 'write',
  summary: 'Crawl a website into a knowledge base',
  description:
    'Starts a crawl (202) from a page or a sitemap: robots.txt and its Crawl-delay are honoured, sitemaps discovered, ' +
    'only HTML and plain-text pages indexed. Each page becomes a document of the base (origin `crawl`); a re-crawl ' +
    'updates only pages that changed (ETag, Last-Modified, checksum) and removes pages that disappeared. Follow it on ' +
    "the base's `last_crawl`; `knowledge_crawl.completed` is emitted at the end. Start URLs on loopback or private " +
    'networks are refused (422) unless the operator allows private networks; link-local and cloud metadata addresses ' +
    'always are, and every fetch and redirect of the crawl is checked the same way. One crawl per base at a time (409). An unknown ' +
    'or foreign `knowledge_base_id` is 422 `invalid_reference`.',
  schema: { body: CrawlKnowledgeSourceBody, response: { 202: KnowledgeCrawl } },
  errors: ['invalid_reference', 'knowledge_crawl_url_forbidden', 'knowledge_crawl_in_progress'],
  handler: ({ body, principal, services }) => services.knowledge.crawls.start(principal, body),
})
