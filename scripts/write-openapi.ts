// `npm run openapi:write` (and the first step of `npm run sdk:generate`): writes spec/openapi.json, the
// OpenAPI document exactly as the server serves it at /v2/openapi.json, from an app built once in this
// process on a throwaway database (the document does not depend on data or on the engine). `PUBLIC_URL` is
// fixed so the file does not change with the machine.
//
// The file is the hand-over between the service and everything generated from its contract: the clients'
// generator (sdk/generator) and the dashboard's API types (dashboard/generate-types.ts) read it as data and
// never import src/ (docs/architecture.md, "Layering"). test/openapi-document.test.ts fails when it is stale.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildApp } from '../src/app.js'
import { loadConfig } from '../src/config.js'

export const OPENAPI_FILE = fileURLToPath(new URL('../spec/openapi.json', import.meta.url))

/** The document as GET /v2/openapi.json answers it on a fresh app. */
export async function buildOpenApiDocument(): Promise<Record<string, any>> {
  const dir = mkdtempSync(join(tmpdir(), 'openapi-doc-'))
  try {
    const app = await buildApp({
      config: loadConfig({
        DATABASE_URL: `sqlite:${join(dir, 'doc.sqlite')}`,
        LOG_LEVEL: 'silent',
        SERVER_SECRET: 'openapi-document-'.padEnd(40, 'x'),
        BLOB_DIR: join(dir, 'blobs'),
        PUBLIC_URL: 'https://api.example.com',
      }),
    })
    try {
      const r = await app.http.inject({ method: 'GET', url: '/v2/openapi.json' })
      if (r.statusCode !== 200) throw new Error(`GET /v2/openapi.json answered ${r.statusCode}`)
      return JSON.parse(r.body)
    } finally {
      await app.close()
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** The file's text: the served key order, indented so that a change reads as a diff. */
export const openApiText = (document: unknown) => `${JSON.stringify(document, null, 2)}\n`

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const document = await buildOpenApiDocument()
  writeFileSync(OPENAPI_FILE, openApiText(document))
  process.stdout.write(`wrote ${OPENAPI_FILE} (API ${document.info?.version}, ${Object.keys(document.paths ?? {}).length} paths)\n`)
}
