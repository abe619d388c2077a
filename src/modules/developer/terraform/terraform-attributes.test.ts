import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createTestApp, json, type TestApp } from '../../../../test/helpers.js'
import { terraformResources, type TerraformAttribute, type TerraformResource } from './terraform-attributes.js'

type Doc = Record<string, any>

const attribute = (r: TerraformResource | undefined, name: string): TerraformAttribute => {
  const a = r?.attributes.find((x) => x.name === name)
  assert.ok(a, `${r?.type} has ${name}`)
  return a
}
const flags = (a: TerraformAttribute) => ({
  type: a.type,
  element_type: a.element_type,
  required: a.required,
  optional: a.optional,
  computed: a.computed,
  sensitive: a.sensitive,
  force_new: a.force_new,
})

/** A document with only the OAuth app operations, as the OAuth part publishes them. */
function oauthDoc(): Doc {
  const app = {
    type: 'object',
    required: ['id', 'object', 'client_id', 'name', 'redirect_uris', 'created_at'],
    properties: {
      id: { type: 'string', examples: ['oapp_01JD0000000000000000000000'] },
      object: { type: 'string', enum: ['oauth_app'] },
      client_id: { type: 'string', examples: ['svc_oci_9f8XbQ2kLm4nP7rS1tUv3w'] },
      name: { type: 'string' },
      redirect_uris: { type: 'array', items: { type: 'string' } },
      created_at: { type: 'string', format: 'date-time' },
    },
  }
  const json = (schema: unknown) => ({ 'application/json': { schema } })
  return {
    openapi: '3.1.0',
    paths: {
      '/oauth/apps': {
        get: { operationId: 'listOAuthApps', responses: { '200': { content: json({ type: 'object', properties: { data: { type: 'array', items: { $ref: '#/components/schemas/OAuthApp' } } } }) } } },
        post: {
          operationId: 'createOAuthApp',
          requestBody: {
            content: json({
              type: 'object',
              required: ['name', 'redirect_uris'],
              properties: {
                name: { type: 'string' },
                redirect_uris: { type: 'array', items: { type: 'string' } },
                type: { type: 'string', enum: ['confidential', 'public'] },
                setup_code: { type: 'string', writeOnly: true },
              },
            }),
          },
          responses: { '201': { content: json({ $ref: '#/components/schemas/OAuthAppWithSecret' }) } },
        },
        patch: {
          operationId: 'updateOAuthApp',
          requestBody: { content: json({ type: 'object', properties: { client_id: { type: 'string' }, name: { type: 'string' } } }) },
          responses: { '200': { content: json({ $ref: '#/components/schemas/OAuthApp' }) } },
        },
      },
    },
    components: {
      schemas: {
        OAuthApp: app,
        OAuthAppWithSecret: { ...app, properties: { ...app.properties, client_secret: { type: ['string', 'null'] } } },
      },
    },
  }
}

describe('Terraform resource types from the OpenAPI document', () => {
  let h: TestApp
  let resources: TerraformResource[]
  const of = (type: string) => resources.find((r) => r.type === type)
  before(async () => {
    h = await createTestApp()
    resources = terraformResources(json(await h.request({ method: 'GET', url: '/v2/openapi.json', key: null })))
  })
  after(() => h.close())

  it('has every catalogued type whose create operation the document has', () => {
    assert.deepEqual(resources.map((r) => r.type).sort(), [
      'svc_agent',
      'svc_bot',
      'svc_knowledge_base',
      'svc_oauth_app',
      'svc_reply_template',
      'svc_retention_policy',
      'svc_tag',
      'svc_voice_number',
      'svc_webhook_endpoint',
    ])
  })

  it('reads attributes from the schemas: required in the create body, computed from the response only, optional ones the server fills in', () => {
    const bot = of('svc_bot')
    assert.equal(bot?.schema, 'Bot')
    assert.deepEqual(flags(attribute(bot, 'name')), { type: 'string', element_type: null, required: true, optional: false, computed: false, sensitive: false, force_new: false })
    assert.deepEqual(flags(attribute(bot, 'id')), { type: 'string', element_type: null, required: false, optional: false, computed: true, sensitive: false, force_new: false })
    assert.equal(attribute(bot, 'created_at').computed, true)
    assert.equal(attribute(bot, 'version_count').type, 'number')
    assert.equal(attribute(bot, 'has_unpublished_changes').type, 'bool')
    assert.deepEqual([attribute(bot, 'channels').type, attribute(bot, 'channels').element_type], ['list', 'string'])
    assert.deepEqual([attribute(bot, 'metadata').type, attribute(bot, 'metadata').element_type], ['map', 'string'])
    // `language` defaults to en: optional, and always filled in by the server. `description` may stay null: optional only.
    assert.deepEqual([attribute(bot, 'language').optional, attribute(bot, 'language').computed], [true, true])
    assert.deepEqual([attribute(bot, 'description').optional, attribute(bot, 'description').computed], [true, false])
    const handoff = attribute(bot, 'handoff')
    assert.equal(handoff.type, 'object')
    assert.ok(handoff.attributes?.some((a) => a.name === 'action' && a.optional))
    assert.ok(!bot!.attributes.some((a) => a.name === 'object'), 'the type tag is no attribute')
    assert.deepEqual(bot!.operations, { create: 'createBot', read: 'getBot', update: 'updateBot', delete: 'deleteBot', list: 'listBots' })
  })

  it('secrets are sensitive and computed; nothing else is sensitive', () => {
    assert.deepEqual(flags(attribute(of('svc_webhook_endpoint'), 'secret')), {
      type: 'string',
      element_type: null,
      required: false,
      optional: false,
      computed: true,
      sensitive: true,
      force_new: false,
    })
    assert.equal(attribute(of('svc_agent'), 'signing_secret').sensitive, true)
    assert.equal(attribute(of('svc_webhook_endpoint'), 'previous_secret_expires_at').sensitive, false)
    const sensitive = resources.flatMap((r) => r.attributes.filter((a) => a.sensitive).map((a) => `${r.type}.${a.name}`))
    assert.deepEqual(sensitive.sort(), ['svc_agent.signing_secret', 'svc_oauth_app.client_secret', 'svc_webhook_endpoint.secret'])
  })

  it('what the update operation cannot change forces a new object; without an update operation everything does', () => {
    assert.equal(attribute(of('svc_voice_number'), 'country').force_new, true)
    assert.equal(attribute(of('svc_reply_template'), 'content').force_new, true)
    assert.equal(attribute(of('svc_bot'), 'instructions').force_new, false)
    assert.ok(of('svc_bot')!.attributes.every((a) => !a.force_new))
  })

  it('import ids: the id prefix from the schema’s example; the retention singleton by workspace', () => {
    assert.deepEqual(of('svc_bot')!.import, { by: 'id', id_format: 'bot_…', example: 'bot_01JD0000000000000000000000' })
    assert.equal(of('svc_knowledge_base')!.import.id_format, 'kb_…')
    assert.equal(of('svc_webhook_endpoint')!.import.id_format, 'we_…')
    const retention = of('svc_retention_policy')!
    assert.equal(retention.import.by, 'workspace')
    assert.deepEqual(
      retention.attributes.map((a) => a.name),
      ['policies', 'updated_at'],
    )
    assert.deepEqual(flags(attribute(retention, 'policies')), { type: 'map', element_type: 'dynamic', required: true, optional: false, computed: false, sensitive: false, force_new: false })
  })

  it('OAuth apps appear once the document has their operations: imported by client_id, the secret sensitive, writeOnly fields too', () => {
    const oauth = terraformResources(oauthDoc())
    assert.deepEqual(
      oauth.map((r) => r.type),
      ['svc_oauth_app'],
    )
    const app = oauth[0]
    assert.equal(app.schema, 'OAuthApp')
    assert.deepEqual(app.import, { by: 'client_id', id_format: 'svc_oci_…', example: 'svc_oci_9f8XbQ2kLm4nP7rS1tUv3w' })
    assert.deepEqual(flags(attribute(app, 'client_secret')), { type: 'string', element_type: null, required: false, optional: false, computed: true, sensitive: true, force_new: false })
    assert.equal(attribute(app, 'setup_code').sensitive, true)
    assert.equal(attribute(app, 'client_id').computed, true)
    assert.equal(attribute(app, 'redirect_uris').force_new, true, 'updateOAuthApp here cannot change them')
    assert.equal(attribute(app, 'name').force_new, false)
    assert.deepEqual([attribute(app, 'type').optional, attribute(app, 'type').computed], [true, false])
  })
})
