import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createTestApp, json, type TestApp } from '../../../../test/helpers.js'
import { diffOpenApi, isEmptyDiff, type OpenApiChange, type OpenApiDiff } from './openapi-diff.js'

type Doc = Record<string, any>

const find = (changes: OpenApiChange[], kind: string, operationId: string) => changes.filter((c) => c.kind === kind && c.operation_id === operationId)
const kinds = (changes: OpenApiChange[]) => [...new Set(changes.map((c) => c.kind))].sort()

/** A small document: enough paths and components to exercise each rule on its own. */
function miniDoc(): Doc {
  return {
    openapi: '3.1.0',
    info: { title: 't', version: '1' },
    paths: {
      '/pets': {
        get: {
          operationId: 'listPets',
          parameters: [{ name: 'status', in: 'query', required: false, schema: { $ref: '#/components/schemas/PetStatus' } }, { $ref: '#/components/parameters/Trace' }],
          responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/PetList' } } } } },
        },
        post: {
          operationId: 'createPet',
          requestBody: { $ref: '#/components/requestBodies/CreatePet' },
          responses: { '201': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } } },
        },
      },
    },
    components: {
      parameters: { Trace: { name: 'X-Trace', in: 'header', required: false, schema: { type: 'string' } } },
      requestBodies: {
        CreatePet: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['name'],
                additionalProperties: false,
                properties: { name: { type: 'string' }, age: { type: 'integer' }, status: { $ref: '#/components/schemas/PetStatus' }, tags: { type: 'array', items: { type: 'string' } } },
              },
            },
          },
        },
      },
      schemas: {
        PetStatus: { type: 'string', enum: ['available', 'sold'] },
        Pet: {
          type: 'object',
          required: ['id', 'name', 'owner'],
          properties: {
            id: { type: 'string' },
            name: { type: 'string' },
            nickname: { type: ['string', 'null'] },
            status: { $ref: '#/components/schemas/PetStatus' },
            owner: { anyOf: [{ $ref: '#/components/schemas/Owner' }, { type: 'null' }] },
            parent: { $ref: '#/components/schemas/Pet' },
          },
        },
        Owner: { type: 'object', required: ['email'], properties: { email: { type: 'string' } } },
        PetList: { type: 'object', properties: { data: { type: 'array', items: { $ref: '#/components/schemas/Pet' } } } },
      },
    },
  }
}

function changed(mutate: (d: Doc) => void): OpenApiDiff {
  const before = miniDoc()
  const after = structuredClone(before)
  mutate(after)
  return diffOpenApi(before, after)
}

describe('diffOpenApi', () => {
  it('finds nothing between a document and its copy (recursive schemas included)', () => {
    assert.ok(isEmptyDiff(diffOpenApi(miniDoc(), miniDoc())))
  })

  it('a removed response field is breaking, reported at its place in the earlier document, for every operation using it', () => {
    const d = changed((a) => delete a.components.schemas.Pet.properties.nickname)
    const removed = d.breaking_changes.filter((c) => c.kind === 'response_field_removed')
    assert.deepEqual(removed.map((c) => c.operation_id).sort(), ['createPet', 'listPets'])
    assert.ok(removed.every((c) => c.location === '/components/schemas/Pet/properties/nickname'))
    assert.equal(find(removed, 'response_field_removed', 'listPets')[0].message, 'response 200 field data[].nickname removed')
    assert.equal(d.non_breaking_changes.length, 0)
  })

  it('a new required body field or parameter is breaking; a new optional one is not', () => {
    const d = changed((a) => {
      const body = a.components.requestBodies.CreatePet.content['application/json'].schema
      body.properties.species = { type: 'string' }
      body.required.push('species')
      body.properties.color = { type: 'string' }
      a.paths['/pets'].get.parameters.push({ name: 'shop', in: 'query', required: true, schema: { type: 'string' } })
      a.paths['/pets'].get.parameters.push({ name: 'q', in: 'query', schema: { type: 'string' } })
    })
    assert.deepEqual(
      d.breaking_changes.map((c) => [c.kind, c.operation_id, c.message]),
      [
        ['request_field_required', 'listPets', 'new required query parameter "shop"'],
        ['request_field_required', 'createPet', 'new required request body field species'],
      ],
    )
    assert.deepEqual(d.breaking_changes[1].location, '/components/requestBodies/CreatePet/content/application~1json/schema/properties/species')
    assert.deepEqual(
      d.non_breaking_changes.map((c) => [c.kind, c.operation_id]),
      [
        ['request_field_added', 'listPets'],
        ['request_field_added', 'createPet'],
      ],
    )
  })

  it('an optional field or parameter that becomes required is breaking; the reverse is not', () => {
    const d = changed((a) => {
      a.components.requestBodies.CreatePet.content['application/json'].schema.required = ['age']
      a.paths['/pets'].get.parameters[0].required = true
    })
    assert.deepEqual(kinds(d.breaking_changes), ['request_field_required'])
    assert.equal(d.breaking_changes.length, 2)
    assert.deepEqual(
      d.non_breaking_changes.map((c) => c.message),
      ['request body field name is now optional'],
    )
  })

  it('a narrowed enum is breaking in requests and in responses; an added value is not', () => {
    const d = changed((a) => (a.components.schemas.PetStatus.enum = ['available', 'pending']))
    const removed = d.breaking_changes.filter((c) => c.kind === 'enum_value_removed')
    // listPets: query parameter and response; createPet: request body and response.
    assert.deepEqual(removed.map((c) => c.message).sort(), [
      'query parameter "status": enum value "sold" removed',
      'request body field status: enum value "sold" removed',
      'response 200 field data[].status: enum value "sold" removed',
      'response 201 field status: enum value "sold" removed',
    ])
    assert.ok(removed.every((c) => c.location === '/components/schemas/PetStatus'))
    assert.equal(d.non_breaking_changes.filter((c) => c.kind === 'enum_value_added').length, 4)
  })

  it('each value removed from an enum is its own change', () => {
    const d = changed((a) => (a.components.schemas.PetStatus.enum = []))
    assert.equal(find(d.breaking_changes, 'enum_value_removed', 'createPet').length, 4)
  })

  it('a changed type is breaking, unless it widens a request or narrows a response', () => {
    const breaking = changed((a) => (a.components.schemas.Pet.properties.name.type = 'integer'))
    assert.deepEqual(breaking.breaking_changes.map((c) => c.message).sort(), [
      'response 200 field data[].name: type changed from string to integer',
      'response 201 field name: type changed from string to integer',
    ])
    const widenedRequest = changed((a) => (a.components.requestBodies.CreatePet.content['application/json'].schema.properties.age.type = 'number'))
    assert.equal(widenedRequest.breaking_changes.length, 0)
    assert.deepEqual(
      widenedRequest.non_breaking_changes.map((c) => c.kind),
      ['type_changed'],
    )
    const narrowedRequest = changed((a) => (a.components.requestBodies.CreatePet.content['application/json'].schema.properties.name.type = ['string', 'null']))
    assert.equal(narrowedRequest.breaking_changes.length, 0, 'accepting null as well widens')
    const nullableResponse = changed((a) => (a.components.schemas.Pet.properties.name.type = ['string', 'null']))
    assert.deepEqual(kinds(nullableResponse.breaking_changes), ['type_changed'], 'a response that may now be null breaks clients')
    const narrowedResponse = changed((a) => (a.components.schemas.Pet.properties.nickname.type = 'string'))
    assert.equal(narrowedResponse.breaking_changes.length, 0)
  })

  it('follows $refs through anyOf branches (a nullable object) and reports inside them', () => {
    const d = changed((a) => {
      delete a.components.schemas.Owner.properties.email
      a.components.schemas.Owner.required = []
    })
    assert.deepEqual(
      find(d.breaking_changes, 'response_field_removed', 'createPet').map((c) => [c.location, c.message]),
      [['/components/schemas/Owner/properties/email', 'response 201 field owner.email removed']],
    )
  })

  it('a response field that may now be absent is breaking; an added response field is not', () => {
    const d = changed((a) => {
      a.components.schemas.Pet.required = ['id', 'name']
      a.components.schemas.Pet.properties.weight = { type: 'number' }
    })
    assert.deepEqual(kinds(d.breaking_changes), ['response_field_optional'])
    assert.deepEqual(kinds(d.non_breaking_changes), ['response_field_added'])
  })

  it('a removed request field is breaking only where the object refuses unknown fields; a removed query parameter is breaking, a header is not', () => {
    const closed = changed((a) => delete a.components.requestBodies.CreatePet.content['application/json'].schema.properties.tags)
    assert.deepEqual(kinds(closed.breaking_changes), ['request_field_removed'])
    const open = changed((a) => {
      const body = a.components.requestBodies.CreatePet.content['application/json'].schema
      delete body.additionalProperties
      delete body.properties.tags
    })
    assert.deepEqual(kinds(open.non_breaking_changes), ['request_field_removed'])
    const params = changed((a) => (a.paths['/pets'].get.parameters = []))
    assert.deepEqual(
      params.breaking_changes.map((c) => c.message),
      ['query parameter "status" removed'],
    )
    assert.deepEqual(
      params.non_breaking_changes.map((c) => [c.message, c.location]),
      [['header parameter "X-Trace" removed', '/components/parameters/Trace']],
    )
  })

  it('operations removed, added and moved; success statuses and media types removed and added', () => {
    const d = changed((a) => {
      delete a.paths['/pets'].post
      a.paths['/pets/{id}'] = { get: { operationId: 'getPet', responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } } } } }
    })
    assert.deepEqual(d.removed_operations, [{ operation_id: 'createPet', method: 'POST', path: '/pets' }])
    assert.deepEqual(d.added_operations, [{ operation_id: 'getPet', method: 'GET', path: '/pets/{id}' }])
    assert.deepEqual(d.breaking_changes, [{ kind: 'operation_removed', operation_id: 'createPet', location: '/paths/~1pets/post', message: 'operation POST /pets removed' }])
    assert.deepEqual(kinds(d.non_breaking_changes), ['operation_added'])

    const moved = changed((a) => {
      a.paths['/animals'] = a.paths['/pets']
      delete a.paths['/pets']
    })
    assert.deepEqual(
      moved.breaking_changes.map((c) => [c.kind, c.operation_id]),
      [
        ['operation_moved', 'listPets'],
        ['operation_moved', 'createPet'],
      ],
    )

    const statuses = changed((a) => {
      const post = a.paths['/pets'].post
      post.responses['200'] = post.responses['201']
      delete post.responses['201']
      post.responses['422'] = { description: 'invalid' }
      a.paths['/pets'].get.responses['200'].content['text/csv'] = { schema: { type: 'string' } }
      delete a.paths['/pets'].get.responses['200'].content['application/json']
    })
    assert.deepEqual(statuses.breaking_changes.map((c) => c.kind).sort(), ['media_type_removed', 'response_status_removed'])
    assert.deepEqual(statuses.non_breaking_changes.map((c) => c.kind).sort(), ['media_type_added', 'response_status_added'], 'error statuses are not reported')
  })

  it('a body that becomes required is breaking', () => {
    const before = miniDoc()
    before.components.requestBodies.CreatePet.required = false
    const d = diffOpenApi(before, miniDoc())
    assert.deepEqual(
      d.breaking_changes.map((c) => c.message),
      ['the request body is now required'],
    )
  })

  it('leaves both documents untouched', () => {
    const before = miniDoc()
    const after = miniDoc()
    delete after.components.schemas.Pet.properties.nickname
    const copies = [structuredClone(before), structuredClone(after)]
    diffOpenApi(before, after)
    assert.deepEqual([before, after], copies)
  })
})

describe('diffOpenApi on the served document', () => {
  let h: TestApp
  let doc: Doc
  before(async () => {
    h = await createTestApp()
    doc = json(await h.request({ method: 'GET', url: '/v2/openapi.json', key: null }))
  })
  after(() => h.close())

  it('finds nothing between the document and a copy', () => {
    assert.ok(isEmptyDiff(diffOpenApi(doc, structuredClone(doc))))
  })

  it('a breaking change made to a copy of the document is reported', () => {
    const copy = structuredClone(doc)
    // 1. A response property removed from a shared component.
    delete copy.components.schemas.Bot.properties.greeting
    copy.components.schemas.Bot.required = copy.components.schemas.Bot.required.filter((n: string) => n !== 'greeting')
    // 2. A required body field added.
    const createBot = copy.components.requestBodies.CreateBotBody.content['application/json'].schema
    createBot.properties.region = { type: 'string' }
    createBot.required.push('region')
    // 3. An enum value removed.
    const channel = copy.components.schemas.ConversationChannel
    assert.ok(channel.enum.includes('sms'))
    channel.enum = channel.enum.filter((v: string) => v !== 'sms')
    // 4. A type changed.
    copy.components.schemas.Bot.properties.version_count.type = 'string'
    // 5. An operation removed.
    delete copy.paths['/bots/{id}'].delete

    const d = diffOpenApi(doc, copy)
    const one = (kind: string, operationId: string) => {
      const found = find(d.breaking_changes, kind, operationId)
      assert.equal(found.length, 1, `${kind} on ${operationId}: ${JSON.stringify(d.breaking_changes.filter((c) => c.operation_id === operationId))}`)
      return found[0]
    }
    assert.deepEqual(one('response_field_removed', 'getBot'), {
      kind: 'response_field_removed',
      operation_id: 'getBot',
      location: '/components/schemas/Bot/properties/greeting',
      message: 'response 200 field greeting removed',
    })
    assert.equal(one('response_field_removed', 'listBots').message, 'response 200 field data[].greeting removed')
    assert.deepEqual(one('request_field_required', 'createBot'), {
      kind: 'request_field_required',
      operation_id: 'createBot',
      location: '/components/requestBodies/CreateBotBody/content/application~1json/schema/properties/region',
      message: 'new required request body field region',
    })
    assert.deepEqual(
      find(d.breaking_changes, 'enum_value_removed', 'createBot').map((c) => c.message),
      ['request body field channels[]: enum value "sms" removed', 'response 201 field channels[]: enum value "sms" removed'],
    )
    assert.equal(one('enum_value_removed', 'getBot').message, 'response 200 field channels[]: enum value "sms" removed')
    assert.equal(one('type_changed', 'getBot').message, 'response 200 field version_count: type changed from integer to string')
    assert.deepEqual(one('operation_removed', 'deleteBot').location, '/paths/~1bots~1{id}/delete')
    assert.deepEqual(d.removed_operations, [{ operation_id: 'deleteBot', method: 'DELETE', path: '/bots/{id}' }])
    assert.deepEqual(d.added_operations, [])
    assert.deepEqual(d.non_breaking_changes, [])
    // Every location resolves in the document that holds it.
    const at = (root: unknown, ptr: string) =>
      ptr
        .slice(1)
        .split('/')
        .reduce<any>((o, s) => o?.[s.replaceAll('~1', '/').replaceAll('~0', '~')], root)
    for (const c of d.breaking_changes) assert.notEqual(at(c.kind.endsWith('_removed') && c.kind !== 'enum_value_removed' ? doc : copy, c.location), undefined, c.location)
  })

  it('non-breaking changes to a copy: an optional field, an operation and an enum value added', () => {
    const copy = structuredClone(doc)
    copy.components.requestBodies.CreateBotBody.content['application/json'].schema.properties.region = { type: 'string' }
    copy.components.schemas.ConversationChannel.enum.push('telegram')
    copy.paths['/bots/{id}/archive'] = { post: { ...structuredClone(doc.paths['/bots/{id}/publish'].post), operationId: 'archiveBot' } }
    const d = diffOpenApi(doc, copy)
    assert.deepEqual(d.breaking_changes, [])
    assert.deepEqual(d.added_operations, [{ operation_id: 'archiveBot', method: 'POST', path: '/bots/{id}/archive' }])
    assert.equal(find(d.non_breaking_changes, 'request_field_added', 'createBot')[0].message, 'new optional request body field region')
    assert.ok(find(d.non_breaking_changes, 'enum_value_added', 'getBot').length === 1)
  })
})
