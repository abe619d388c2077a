import { Type, type Static } from 'typebox'
import { Nullable } from '../../../kernel/http/schemas.js'

const DateTime = Type.String({ format: 'date-time' })

export const CRAWL_LIMITS = { maxPages: { default: 100, max: 1000 }, maxDepth: { default: 3, max: 10 }, patterns: 20 }
/** Skipped and failed URLs kept on the crawl, each with its reason. */
export const SAMPLE_LIMIT = 20

const Patterns = (what: string) =>
  Type.Array(Type.String({ minLength: 1, maxLength: 300 }), {
    maxItems: CRAWL_LIMITS.patterns,
    description:
      `${what} URL patterns, matched against the path (and query) of each URL: a pattern without wildcards is a path prefix ` +
      '(`/docs` matches `/docs`, `/docs/` and `/docs/intro`, not `/docsearch`); with wildcards it is a glob ' +
      '(`*` within a path segment, `**` across segments, `{a,b}` alternatives), e.g. `/blog/**` or `/**/*.html`.',
  })

export const CrawlKnowledgeSourceBody = Type.Object(
  {
    knowledge_base_id: Type.String({ minLength: 1, maxLength: 100 }),
    url: Type.String({
      format: 'uri',
      maxLength: 2048,
      description: 'Where to start: a page (followed link by link) or a sitemap / sitemap index (its pages are the starting points). http or https.',
    }),
    max_pages: Type.Optional(Type.Integer({ minimum: 1, maximum: CRAWL_LIMITS.maxPages.max, description: `Pages fetched at most (default ${CRAWL_LIMITS.maxPages.default}).` })),
    max_depth: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: CRAWL_LIMITS.maxDepth.max,
        description: `Links followed from the start page or a sitemap entry (default ${CRAWL_LIMITS.maxDepth.default}; 0 = only those).`,
      }),
    ),
    include: Type.Optional(Patterns('Only crawl URLs matching one of these. Without it, a start URL below the site root keeps the crawl in its folder.')),
    exclude: Type.Optional(Patterns('Never crawl URLs matching one of these (wins over include).')),
    same_site: Type.Optional(Type.Boolean({ description: "Only follow links to the start URL's host (a leading `www.` ignored). Default true." })),
  },
  { additionalProperties: false, title: 'CrawlKnowledgeSourceBody' },
)
export type CrawlKnowledgeSourceBodyT = Static<typeof CrawlKnowledgeSourceBody>

const Sample = Type.Object({ url: Type.String(), reason: Type.String() }, { additionalProperties: false })

export const KnowledgeCrawl = Type.Object(
  {
    id: Type.String({ examples: ['crl_01JD0000000000000000000000'] }),
    object: Type.Literal('knowledge_crawl'),
    knowledge_base_id: Type.String(),
    url: Type.String({ description: 'The start URL, canonicalised.' }),
    status: Type.Union([Type.Literal('queued'), Type.Literal('running'), Type.Literal('completed'), Type.Literal('failed')]),
    options: Type.Object({
      max_pages: Type.Integer(),
      max_depth: Type.Integer(),
      include: Type.Array(Type.String()),
      exclude: Type.Array(Type.String()),
      same_site: Type.Boolean(),
    }),
    counts: Type.Object(
      {
        found: Type.Integer({ description: 'Distinct in-scope URLs discovered (including any left unvisited at the page limit).' }),
        indexed: Type.Integer({ description: 'Pages new or changed: their documents were created or updated and queued for processing.' }),
        unchanged: Type.Integer({ description: 'Pages that answered 304 Not Modified or had the same checksum as before.' }),
        skipped: Type.Integer({ description: 'URLs not indexed by rule: robots.txt, content type, size, noindex, duplicates, refused addresses.' }),
        failed: Type.Integer({ description: 'URLs that could not be fetched: HTTP errors, timeouts, network errors.' }),
        removed: Type.Integer({ description: 'Documents deleted because their page disappeared.' }),
      },
      { additionalProperties: false },
    ),
    skipped: Type.Array(Sample, { description: `Up to ${SAMPLE_LIMIT} skipped URLs with the reason.` }),
    failed: Type.Array(Sample, { description: `Up to ${SAMPLE_LIMIT} failed URLs with the reason.` }),
    complete: Nullable(Type.Boolean({ description: 'Finished with nothing left to visit and no failure that may pass; only then are pages no longer linked removed. Null until finished.' })),
    error: Nullable(Type.String({ description: 'Why the crawl failed, or why it stopped short of the whole site.' })),
    created_at: DateTime,
    started_at: Nullable(DateTime),
    finished_at: Nullable(DateTime),
    updated_at: DateTime,
  },
  { $id: 'KnowledgeCrawl' },
)
export type KnowledgeCrawlT = Static<typeof KnowledgeCrawl>

export const CRAWL_EXAMPLE: KnowledgeCrawlT = {
  id: 'crl_01JD0000000000000000000000',
  object: 'knowledge_crawl',
  knowledge_base_id: 'kb_01JD0000000000000000000000',
  url: 'https://help.example.com/',
  status: 'completed',
  options: { max_pages: 100, max_depth: 3, include: [], exclude: ['/admin'], same_site: true },
  counts: { found: 58, indexed: 12, unchanged: 41, skipped: 4, failed: 1, removed: 2 },
  skipped: [{ url: 'https://help.example.com/private/', reason: 'disallowed by robots.txt' }],
  failed: [{ url: 'https://help.example.com/broken', reason: 'HTTP 500' }],
  complete: false,
  error: '1 pages could not be fetched this time',
  created_at: '2026-11-25T10:00:00.000Z',
  started_at: '2026-11-25T10:00:01.000Z',
  finished_at: '2026-11-25T10:01:30.000Z',
  updated_at: '2026-11-25T10:01:30.000Z',
}
