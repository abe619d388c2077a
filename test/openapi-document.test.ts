import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { describe, it } from 'node:test'
import { buildOpenApiDocument, OPENAPI_FILE, openApiText } from '../scripts/write-openapi.js'

// spec/openapi.json is the contract handed to everything generated from it (the clients, the dashboard's
// types), which read it as data instead of building the app: it must be exactly what the app serves now.
// Change an operation without `npm run sdk:generate` and this fails (then the clients' and the dashboard's
// freshness tests say which generated files follow).
describe('spec/openapi.json', { skip: process.env.TEST_DB === 'postgres' && 'the document does not depend on the engine: checked on SQLite' }, () => {
  it('is the document GET /v2/openapi.json serves', async () => {
    const served = openApiText(await buildOpenApiDocument())
    assert.ok(readFileSync(OPENAPI_FILE, 'utf8') === served, 'run `npm run sdk:generate` (or `npm run openapi:write`) and commit spec/openapi.json')
  })
})
