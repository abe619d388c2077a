import type { FastifyInstance } from 'fastify'
import { minRoleOf } from '../auth/roles.js'
import { AppError, allErrors } from '../errors.js'
import type { Mode } from '../tenant.js'
import type { AnyRoute } from './define-route.js'

const esc = (s: unknown): string => String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)

const page = (title: string, body: string): string =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title>` +
  `<style>body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}code,pre{background:#f4f4f4;padding:.1rem .3rem}pre{padding:1rem;overflow:auto}td,th{border-bottom:1px solid #ddd;padding:.3rem .6rem;text-align:left}</style>` +
  `</head><body>${body}</body></html>`

type Doc = { paths?: Record<string, Record<string, Record<string, unknown>>>; components?: Record<string, Record<string, unknown>> }

/** A `#/components/<kind>/<name>` reference resolved against the document (anything else as it is). */
function resolve(doc: Doc, value: unknown): Record<string, unknown> {
  const target = (value as { $ref?: unknown })?.$ref
  if (typeof target !== 'string') return (value ?? {}) as Record<string, unknown>
  const [, kind, name] = /^#\/components\/([^/]+)\/(.+)$/.exec(target) ?? []
  return (doc.components?.[kind]?.[name] ?? {}) as Record<string, unknown>
}

/** The names of the schema components `value` refers to, transitively, in order of first use. */
function schemaRefs(doc: Doc, value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) schemaRefs(doc, v, out)
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const m = k === '$ref' && typeof v === 'string' ? /^#\/components\/schemas\/(.+)$/.exec(v) : null
      if (m && !out.includes(m[1])) {
        out.push(m[1])
        schemaRefs(doc, doc.components?.schemas?.[m[1]], out)
      } else if (k === '$ref' && typeof v === 'string') schemaRefs(doc, resolve(doc, value), out)
      else schemaRefs(doc, v, out)
    }
  }
  return out
}

function findOperation(doc: Doc, operationId: string): { path: string; method: string; op: Record<string, unknown> } | null {
  for (const [path, methods] of Object.entries(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(methods)) {
      if (op.operationId === operationId) return { path, method, op }
    }
  }
  return null
}

/**
 * The reference: /openapi.json, an index at /api-docs, one page per operation at
 * /api-docs/{module}/{operationId} and one per error code at /api-docs/errors/{code} (the problem `type`).
 * All generated from the OpenAPI document, so they cannot drift from the routes.
 */
export function registerDocs(scope: FastifyInstance, getDoc: () => Record<string, unknown>, routes: AnyRoute[], _mode: Mode): void {
  const html = (reply: import('fastify').FastifyReply, s: string) => reply.type('text/html; charset=utf-8').send(s)

  // The document is finalised once (openapi.ts); its text is kept too.
  let text: string | undefined
  scope.get('/openapi.json', async (_req, reply) => reply.type('application/json').send((text ??= JSON.stringify(getDoc()))))

  scope.get('/api-docs', async (_req, reply) => {
    const modules = [...new Set(routes.map((r) => r.module))].sort()
    const sections = modules
      .map((m) => {
        const rows = routes
          .filter((r) => r.module === m)
          .map(
            (r) =>
              `<tr><td><code>${r.method}</code></td><td><code>${esc(r.url)}</code></td><td><a href="api-docs/${m}/${r.operationId}">${r.operationId}</a></td><td>${esc(r.scope)}</td><td>${esc(r.summary)}</td></tr>`,
          )
          .join('')
        return `<h2>${esc(m)}</h2><table><tr><th>Method</th><th>Path</th><th>operationId</th><th>Scope</th><th>Summary</th></tr>${rows}</table>`
      })
      .join('')
    const errors = allErrors()
      .map(([c, spec]) => `<li><a href="api-docs/errors/${c}"><code>${c}</code></a> (${spec.status}, ${esc(spec.module)})</li>`)
      .join('')
    return html(reply, page('API reference', `<h1>API reference (v2)</h1><p><a href="openapi.json">openapi.json</a></p>${sections}<h2>Error codes</h2><ul>${errors}</ul>`))
  })

  scope.get<{ Params: { code: string } }>('/api-docs/errors/:code', async (req, reply) => {
    const spec = allErrors().find(([c]) => c === req.params.code)?.[1]
    if (!spec) throw new AppError('route_not_found', `No error code '${req.params.code}'.`)
    return html(
      reply,
      page(
        `${req.params.code}`,
        `<h1><code>${esc(req.params.code)}</code></h1><p>HTTP ${spec.status}: ${esc(spec.title)}.</p><p>Returned as <code>application/problem+json</code> with <code>type</code>, <code>title</code>, <code>status</code>, <code>detail</code>, <code>instance</code>, <code>code</code> and <code>request_id</code>.</p><p><a href="../../api-docs">All operations</a></p>`,
      ),
    )
  })

  scope.get<{ Params: { module: string; operationId: string } }>('/api-docs/:module/:operationId', async (req, reply) => {
    const route = routes.find((r) => r.module === req.params.module && r.operationId === req.params.operationId)
    const doc = getDoc() as Doc
    const found = route ? findOperation(doc, route.operationId) : null
    if (!route || !found) throw new AppError('route_not_found', `No operation ${req.params.module}/${req.params.operationId}.`)
    const { op } = found
    const params = ((op.parameters as Record<string, unknown>[]) ?? [])
      .map((ref) => resolve(doc, ref))
      .map(
        (p) =>
          `<tr><td><code>${esc(p.name)}</code></td><td>${esc(p.in)}</td><td>${p.required ? 'yes' : 'no'}</td><td><code>${esc(JSON.stringify(p.schema))}</code></td><td>${esc(p.description ?? (p.schema as { description?: string })?.description)}</td></tr>`,
      )
      .join('')
    const requestBody = op.requestBody ? resolve(doc, op.requestBody) : null
    const body = requestBody ? `<h2>Request body</h2><pre>${esc(JSON.stringify(requestBody, null, 2))}</pre>` : ''
    const responses = Object.entries((op.responses as Record<string, { description?: string; content?: unknown }>) ?? {})
      .map(([code, r]) => `<h3>${esc(code)}</h3><p>${esc(r.description)}</p>${Number(code) < 400 ? `<pre>${esc(JSON.stringify(r.content ?? {}, null, 2))}</pre>` : ''}`)
      .join('')
    const schemas = schemaRefs(doc, [requestBody, Object.entries((op.responses as Record<string, unknown>) ?? {}).filter(([c]) => Number(c) < 400)])
      .map((name) => `<h3 id="${esc(name)}">${esc(name)}</h3><pre>${esc(JSON.stringify(doc.components?.schemas?.[name], null, 2))}</pre>`)
      .join('')
    const out = page(
      `${route.operationId} — API reference`,
      `<p><a href="../../api-docs">API reference</a> › ${esc(route.module)}</p><h1>${esc(route.operationId)}</h1><p>${esc(route.summary)}</p>` +
        `<p><code>${route.method} ${esc(route.url)}</code></p><p>Required scope: <code>${esc(route.scope)}</code>${route.public ? ' (no API key needed)' : `; minimum member role: <code>${minRoleOf(route)}</code>`}</p>` +
        (route.description ? `<p>${esc(route.description)}</p>` : '') +
        (params ? `<h2>Parameters</h2><table><tr><th>Name</th><th>In</th><th>Required</th><th>Schema</th><th>Description</th></tr>${params}</table>` : '') +
        body +
        `<h2>Responses</h2>${responses}` +
        (schemas ? `<h2>Schemas</h2>${schemas}` : ''),
    )
    return html(reply, out)
  })
}
