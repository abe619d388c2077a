import { createHash } from 'node:crypto'
import type { FastifyInstance, FastifyReply } from 'fastify'

/**
 * Server-rendered pages (member sign-in, OAuth consent): escaped templates and one strict page frame.
 * Every value interpolated into `html` is escaped unless it is itself `Html`, so markup is built only from
 * literals. Pages carry a Content-Security-Policy without scripts at all and with the one stylesheet
 * allowed by its hash (no 'unsafe-inline'), deny framing (clickjacking of a consent button, RFC 9700
 * §4.16) and are never cached.
 */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }
export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => ESCAPES[c])

function render(v: unknown): string {
  if (v instanceof Html) return v.value
  if (Array.isArray(v)) return v.map(render).join('')
  if (v === null || v === undefined || v === false) return ''
  return escapeHtml(String(v))
}

export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0]
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1]
  return new Html(out)
}

const STYLE = [
  'body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#f5f6f8;color:#1d2330}',
  'main{max-width:28rem;margin:4rem auto;background:#fff;padding:2rem;border-radius:8px;box-shadow:0 1px 3px #0002}',
  'h1{font-size:1.4rem;margin-top:0}label{display:block;margin:1rem 0 .3rem;font-weight:600}',
  'input[type=email],input[type=password],select{width:100%;box-sizing:border-box;padding:.5rem;font-size:1rem}',
  'button{margin-top:1.2rem;padding:.6rem 1.2rem;font-size:1rem;cursor:pointer}',
  '.error{background:#fdecea;color:#8a1c12;padding:.6rem;border-radius:4px}.muted{color:#5b6475;font-size:.9rem}',
  'ul.scopes li{margin:.3rem 0}.row{display:flex;gap:.6rem}',
].join('')
const STYLE_HASH = `'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`

export interface PageOptions {
  status?: number
  /** The page's language (`<html lang>`), default English. */
  lang?: string
  title: string
  body: Html
  /**
   * Where the page's forms may lead besides this origin. Browsers apply form-action to the redirects
   * that follow a submission too, so a consent form lists the client's redirect URI origin here.
   */
  formTargets?: string[]
}

export function sendPage(reply: FastifyReply, page: PageOptions): FastifyReply {
  const formAction = ["'self'", ...(page.formTargets ?? [])].join(' ')
  reply
    .code(page.status ?? 200)
    .header('Content-Type', 'text/html; charset=utf-8')
    .header('Content-Security-Policy', `default-src 'none'; style-src ${STYLE_HASH}; img-src 'self'; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`)
    .header('X-Frame-Options', 'DENY')
    .header('X-Content-Type-Options', 'nosniff')
    .header('Referrer-Policy', 'no-referrer')
    .header('Cache-Control', 'no-store')
    .header('Pragma', 'no-cache')
  const doc = html`<!doctype html>
<html lang="${page.lang ?? 'en'}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${page.title}</title><style>${new Html(STYLE)}</style></head>
<body><main>${page.body}</main></body></html>`
  return reply.send(doc.value)
}

/** A redirect that tells proxies and browsers not to keep it (it may carry a code or a session change). */
export function sendRedirect(reply: FastifyReply, location: string, status: 302 | 303 = 303): FastifyReply {
  return reply.code(status).header('Location', location).header('Cache-Control', 'no-store').header('Referrer-Policy', 'no-referrer').send()
}

/**
 * Parses application/x-www-form-urlencoded bodies into URLSearchParams in this Fastify scope (pages'
 * forms, the OAuth token endpoint); a form is small, so the body limit is 16 KiB.
 */
export function acceptForms(app: FastifyInstance): void {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 16 * 1024 }, (_req, body, done) => {
    done(null, new URLSearchParams(String(body)))
  })
}

/** The form of a request (empty when it sent none or something else). */
export const formOf = (body: unknown): URLSearchParams => (body instanceof URLSearchParams ? body : new URLSearchParams())
