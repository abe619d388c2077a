import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { generateAll, LANGUAGES, readDocument, stale } from './generate.js'
import { placeOf, readModel } from '../../lib/sdk-generator/ir.js'

// The committed clients are exactly what the generator makes from spec/openapi.json, the document the server
// serves (test/openapi-document.test.ts holds the file to the app): change a route without
// `npm run sdk:generate` and one of the two fails, naming the files.
describe('sdk generator', { skip: process.env.TEST_DB === 'postgres' && 'the document does not depend on the engine: checked on SQLite' }, () => {
  it('the committed clients are what the generator writes from spec/openapi.json', () => {
    const doc = readDocument()
    const model = readModel(doc)
    const files = generateAll(model)
    for (const lang of Object.keys(LANGUAGES))
      assert.ok(
        [...files.keys()].some((p) => p.startsWith(`${lang}/`)),
        `${lang}: the emitter wrote nothing`,
      )
    assert.deepEqual(stale(files), [], 'run `npm run sdk:generate` and commit the result')
  })

  it('places every operation of the document once, at a unique namespace and method', () => {
    const doc = readDocument()
    const ids = Object.values<any>(doc.paths).flatMap((item) => ['get', 'post', 'put', 'patch', 'delete'].filter((m) => item[m]).map((m) => item[m].operationId))
    const model = readModel(doc)
    assert.deepEqual(model.operations.map((o) => o.operationId).sort(), [...ids].sort())
    const places = model.operations.map((o) => [...o.namespace, o.method_name].join('.'))
    assert.equal(new Set(places).size, places.length, 'two operations share a method')
    assert.equal(model.version, doc.info.version)
  })

  it('names methods from the path and the operationId verb', () => {
    assert.deepEqual(placeOf('/inbox/conversations/{id}/messages', 'listMessages'), { namespace: ['inbox', 'conversations', 'messages'], method_name: 'list' })
    assert.deepEqual(placeOf('/inbox/conversations/{id}/assign', 'assignConversation'), { namespace: ['inbox', 'conversations'], method_name: 'assign' })
    assert.deepEqual(placeOf('/webhooks/endpoints/{id}/rotate-secret', 'rotateWebhookSecret'), { namespace: ['webhooks', 'endpoints'], method_name: 'rotateSecret' })
    assert.deepEqual(placeOf('/agents/{id}/dry-run/stream', 'streamAgentDryRun'), { namespace: ['agents', 'dryRun'], method_name: 'stream' })
    assert.deepEqual(placeOf('/', 'getApiRoot'), { namespace: [], method_name: 'getApiRoot' })
  })
})
