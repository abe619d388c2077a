import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { describe, it } from 'node:test'
import { dashboardTypes, readDocument, TYPES_FILE } from './generate-types.js'

// The dashboard's committed API types are what openapi-typescript makes from spec/openapi.json, the document
// served now (test/openapi-document.test.ts):
// change an operation without `npm run sdk:generate` and this fails (the app would be typed against an old API).
describe('dashboard API types', { skip: process.env.TEST_DB === 'postgres' && 'the document does not depend on the engine: checked on SQLite' }, () => {
  it('dashboard/src/api/schema.d.ts is current', async () => {
    const expected = await dashboardTypes(readDocument())
    assert.ok(readFileSync(TYPES_FILE, 'utf8') === expected, 'run `npm run sdk:generate` and commit dashboard/src/api/schema.d.ts')
  })
})
