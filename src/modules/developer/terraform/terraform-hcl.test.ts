import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { parse } from '@cdktn/hcl2json'
import type { TerraformAttribute, TerraformResource } from './terraform-attributes.js'
import { configurationOf, hclLabel, hclString, hclValue, renderHcl } from './terraform-hcl.js'
import type { RestMapping } from './terraform-restapi.js'
import { jsonencoded, literal } from './terraform.testkit.js'

const attr = (name: string, over: Partial<TerraformAttribute> = {}): TerraformAttribute => ({
  name,
  type: 'string',
  element_type: null,
  required: false,
  optional: true,
  computed: false,
  sensitive: false,
  force_new: false,
  description: null,
  ...over,
})

const THING: TerraformResource = {
  object: 'terraform_resource',
  type: 'svc_bot',
  description: 'test',
  schema: 'Bot',
  import: { by: 'id', id_format: 'bot_…', example: 'bot_01' },
  operations: { create: 'createBot', read: 'getBot', update: 'updateBot', delete: 'deleteBot', list: 'listBots' },
  attributes: [
    attr('id', { optional: false, computed: true }),
    attr('name', { required: true, optional: false }),
    attr('instructions'),
    attr('channels', { type: 'list', element_type: 'string' }),
    attr('metadata', { type: 'map', element_type: 'string' }),
    attr('temperature', { type: 'number' }),
    attr('enabled', { type: 'bool' }),
    attr('token', { sensitive: true }),
    attr('handoff', { type: 'object', attributes: [attr('action'), attr('assignee_id'), attr('seen_at', { optional: false, computed: true })] }),
    attr('tools', { type: 'list', element_type: 'object', attributes: [attr('name', { required: true, optional: false }), attr('id', { optional: false, computed: true })] }),
  ],
}

async function parsed(text: string): Promise<any> {
  return parse('main.tf', text)
}

describe('HCL writer', () => {
  it('quotes any string so that it parses back to itself: quotes, backslashes, newlines, control characters, template sequences, emoji', async () => {
    const nasty = ['plain', 'say "hi"', 'C:\\path\\', 'two\nlines\r\n', 'tab\there', 'bell\u0007', 'Hi ${contact.name}', '%{ if x }', '$${kept}', 'émoji 🎉', '']
    const text = nasty.map((s, i) => `v${i} = ${hclString(s)}`).join('\n')
    const back: any = literal(await parsed(text))
    nasty.forEach((s, i) => assert.equal(back[`v${i}`], s, JSON.stringify(s)))
  })

  it('writes lists, maps with any key, nested objects, numbers, booleans and null', async () => {
    const value = { list: ['a', 'b'], empty: [], map: { 'plan-tier': 'gold', 'a b': 'c', ok: 'd' }, nested: { deep: [{ x: 1.5, y: true, z: null }] }, big: 12345678901, neg: -3 }
    const text = Object.entries(value)
      .map(([k, v]) => `${k} = ${hclValue(v)}`)
      .join('\n')
    assert.deepEqual(await parsed(text), value)
  })

  it('labels: valid identifiers from names, accents dropped, unique per type, a fallback when nothing is left', () => {
    assert.equal(hclLabel('Support', 'bot'), 'support')
    assert.equal(hclLabel('1st Line — Ünïcode!', 'bot'), 'bot_1st_line_unicode')
    assert.equal(hclLabel('   ', 'bot'), 'bot')
    assert.equal(hclLabel('日本語', 'tag'), 'tag')
    assert.equal(hclLabel('x'.repeat(80), 'bot').length, 60)
  })

  const BOTS: RestMapping = { kind: 'resource', path: '/bots', settings: {}, noDelete: false, noUpdate: false }

  it('renders the provider, an import and a restapi_object per object, with the configurable values only as data, and parses', async () => {
    const objects = [
      {
        id: 'bot_1',
        name: 'Support',
        instructions: 'Hello ${contact.name}\nBye',
        channels: ['chat', 'email'],
        metadata: { team: 'eu', 'cost-center': '42' },
        temperature: 0.2,
        enabled: false,
        token: 'secret!',
        handoff: { action: 'assign', assignee_id: null, seen_at: 'x' },
        tools: [{ id: 'tool_1', name: 'lookup' }],
      },
      { id: 'bot_2', name: 'Support', instructions: null },
      { id: 'bot_3', name: '' },
    ]
    const text = renderHcl({ header: ['generated for a test'], uri: 'https://api.example.com/v2', groups: [{ resource: THING, mapping: BOTS, objects }] })
    assert.match(text, /^# generated for a test\n/)
    assert.doesNotMatch(text, /secret!|seen_at|tool_1/, 'no secrets and no computed values')
    const hcl = (await parsed(text)) as any
    assert.deepEqual(hcl.terraform[0].required_providers[0].restapi, { source: 'Mastercard/restapi', version: '~> 3.0' })
    assert.deepEqual(hcl.provider.restapi[0], {
      uri: 'https://api.example.com/v2',
      bearer_token: '${var.svc_api_key}',
      id_attribute: 'id',
      update_method: 'PATCH',
      write_returns_object: true,
    })
    assert.equal(hcl.variable.svc_api_key[0].sensitive, true)
    assert.deepEqual(
      hcl.import.map((i: any) => [i.to, i.id]),
      [
        ['${restapi_object.bot_support}', '/bots/bot_1'],
        ['${restapi_object.bot_support_2}', '/bots/bot_2'],
        ['${restapi_object.bot}', '/bots/bot_3'],
      ],
    )
    const support = hcl.resource.restapi_object.bot_support[0]
    assert.equal(support.path, '/bots')
    assert.equal(support.ignore_server_additions, true)
    assert.equal(support.lifecycle, undefined)
    const data = await jsonencoded(support.data)
    assert.deepEqual(data, {
      name: 'Support',
      instructions: 'Hello ${contact.name}\nBye',
      channels: ['chat', 'email'],
      metadata: { team: 'eu', 'cost-center': '42' },
      temperature: 0.2,
      enabled: false,
      handoff: { action: 'assign' },
      tools: [{ name: 'lookup' }],
    })
    assert.deepEqual(data, configurationOf(THING.attributes, objects[0]))
    assert.deepEqual(await jsonencoded(hcl.resource.restapi_object.bot_support_2[0].data), { name: 'Support' })
  })

  it('force-new values: listed in force_new and left out of update_data; no delete: prevent_destroy; other paths and methods written', async () => {
    const thing: TerraformResource = { ...THING, attributes: [attr('name', { required: true, optional: false }), attr('country', { force_new: true })] }
    const mapping: RestMapping = { kind: 'resource', path: '/things', settings: { update_path: '/things/{id}/settings', destroy_method: 'POST' }, noDelete: true, noUpdate: false }
    const hcl = (await parsed(renderHcl({ header: [], uri: 'http://x/v2', groups: [{ resource: thing, mapping, objects: [{ id: 'th_1', name: 'A', country: 'US' }] }] }))) as any
    const block = hcl.resource.restapi_object.bot_a[0]
    assert.deepEqual(block.force_new, ['country'])
    assert.deepEqual(await jsonencoded(block.data), { name: 'A', country: 'US' })
    assert.deepEqual(await jsonencoded(block.update_data), { name: 'A' })
    assert.equal(block.update_path, '/things/{id}/settings')
    assert.equal(block.destroy_method, 'POST')
    assert.deepEqual(block.lifecycle, [{ prevent_destroy: true }])
  })

  it('a type read only as a list becomes a data source found in the list by its import field', async () => {
    const app: TerraformResource = { ...THING, type: 'svc_oauth_app', import: { by: 'client_id', id_format: null, example: null } }
    const mapping: RestMapping = { kind: 'data', path: '/oauth/apps', settings: {}, noDelete: false, noUpdate: false }
    const hcl = (await parsed(renderHcl({ header: [], uri: 'http://x/v2', groups: [{ resource: app, mapping, objects: [{ id: 'oa_1', client_id: 'cid_1', name: 'Portal' }] }] }))) as any
    assert.equal(hcl.import, undefined)
    assert.deepEqual(hcl.data.restapi_object.oauth_app_portal[0], {
      path: '/oauth/apps',
      query_string: 'limit=100',
      results_key: 'data',
      search_key: 'client_id',
      search_value: 'cid_1',
      id_attribute: 'client_id',
    })
  })

  it('a singleton is imported by its own path: path its parent, object_id its last segment', async () => {
    const singleton: TerraformResource = {
      ...THING,
      type: 'svc_retention_policy',
      import: { by: 'workspace', id_format: 'ws_…', example: null },
      attributes: [attr('policies', { type: 'map', element_type: 'dynamic', required: true, optional: false })],
    }
    const mapping: RestMapping = {
      kind: 'resource',
      path: '/compliance',
      objectId: 'retention',
      settings: { create_path: '/compliance/retention', create_method: 'PATCH' },
      noDelete: true,
      noUpdate: false,
    }
    const text = renderHcl({ header: [], uri: 'http://x/v2', groups: [{ resource: singleton, mapping, objects: [{ policies: { messages: 30, api_logs: 'keep' } }] }] })
    const hcl = (await parsed(text)) as any
    assert.deepEqual(hcl.import, [{ to: '${restapi_object.retention_policy}', id: '/compliance/retention' }])
    const block = hcl.resource.restapi_object.retention_policy[0]
    assert.equal(block.object_id, 'retention')
    assert.equal(block.create_method, 'PATCH')
    assert.deepEqual(await jsonencoded(block.data), { policies: { messages: 30, api_logs: 'keep' } })
  })
})
