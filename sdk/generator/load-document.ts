import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildApp } from '../../src/app.js'
import { loadConfig } from '../../src/config.js'

/**
 * The OpenAPI document exactly as the server serves it at /v2/openapi.json, from an app built in this
 * process on a throwaway database (the document does not depend on data). `PUBLIC_URL` is fixed so the
 * generated clients do not change with the machine.
 */
export async function loadDocument(): Promise<Record<string, any>> {
  const dir = mkdtempSync(join(tmpdir(), 'sdk-doc-'))
  try {
    const app = await buildApp({ config: loadConfig({ DATABASE_URL: `sqlite:${join(dir, 'doc.sqlite')}`, LOG_LEVEL: 'silent', SERVER_SECRET: 'sdk-generator-'.padEnd(40, 'x'), BLOB_DIR: join(dir, 'blobs'), PUBLIC_URL: 'https://api.example.com' }) })
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
