import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { parse } from '@cdktn/hcl2json'
import type { TerraformAttribute, TerraformResource } from './terraform-attributes.js'
import { configurationOf, hclLabel, hclString, hclValue, renderHcl } from './terraform-hcl.js'

// hcl2json gives HCL as Terraform's JSON syntax, where `${` and `%{` still start templates: it keeps them
// escaped as `$${` and `%%{`. Undoing that gives the string Terraform itself would hold.
const literal = (v: unknown): unknown =>
  typeof v === 'string' ? v.replaceAll('$${', '${').replaceAll('%%{', '%{') : Array.isArray(v) ? v.map(literal) : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, literal(x)])) : v

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
    const text = Object.entries(value).map(([k, v]) => `${k} = ${hclValue(v)}`).join('\n')
    assert.deepEqual(await parsed(text), value)
  })

  it('labels: valid identifiers from names, accents dropped, unique per type, a fallback when nothing is left', () => {
    assert.equal(hclLabel('Support', 'bot'), 'support')
    assert.equal(hclLabel('1st Line — Ünïcode!', 'bot'), 'bot_1st_line_unicode')
    assert.equal(hclLabel('   ', 'bot'), 'bot')
    assert.equal(hclLabel('日本語', 'tag'), 'tag')
    assert.equal(hclLabel('x'.repeat(80), 'bot').length, 60)
  })

  it('renders import and resource blocks with the configurable values only, and parses', async () => {
    const objects = [
      { id: 'bot_1', name: 'Support', instructions: 'Hello ${contact.name}\nBye', channels: ['chat', 'email'], metadata: { team: 'eu', 'cost-center': '42' }, temperature: 0.2, enabled: false, token: 'secret!', handoff: { action: 'assign', assignee_id: null, seen_at: 'x' }, tools: [{ id: 'tool_1', name: 'lookup' }] },
      { id: 'bot_2', name: 'Support', instructions: null },
      { id: 'bot_3', name: '' },
    ]
    const text = renderHcl({ header: ['generated for a test'], workspaceId: 'ws_1', groups: [{ resource: THING, objects }] })
    assert.match(text, /^# generated for a test\n/)
    assert.doesNotMatch(text, /secret!|seen_at|tool_1/, 'no secrets and no computed values')
    const hcl = literal(await parsed(text)) as any
    assert.deepEqual(
      hcl.import.map((i: any) => [i.to, i.id]),
      [
        ['${svc_bot.support}', 'bot_1'],
        ['${svc_bot.support_2}', 'bot_2'],
        ['${svc_bot.bot}', 'bot_3'],
      ],
    )
    assert.deepEqual(hcl.resource.svc_bot.support[0], {
      name: 'Support',
      instructions: 'Hello ${contact.name}\nBye',
      channels: ['chat', 'email'],
      metadata: { team: 'eu', 'cost-center': '42' },
      temperature: 0.2,
      enabled: false,
      handoff: { action: 'assign' },
      tools: [{ name: 'lookup' }],
    })
    assert.deepEqual(hcl.resource.svc_bot.support_2[0], { name: 'Support' })
    assert.deepEqual(hcl.resource.svc_bot.support[0], configurationOf(THING.attributes, objects[0]))
  })

  it('a singleton is imported by the workspace id', async () => {
    const singleton: TerraformResource = { ...THING, type: 'svc_retention_policy', import: { by: 'workspace', id_format: 'ws_…', example: null }, attributes: [attr('policies', { type: 'map', element_type: 'dynamic', required: true, optional: false })] }
    const text = renderHcl({ header: [], workspaceId: 'ws_9', groups: [{ resource: singleton, objects: [{ policies: { messages: 30, api_logs: 'keep' } }] }] })
    const hcl = (await parsed(text)) as any
    assert.deepEqual(hcl.import, [{ to: '${svc_retention_policy.workspace}', id: 'ws_9' }])
    assert.deepEqual(hcl.resource.svc_retention_policy.workspace[0], { policies: { messages: 30, api_logs: 'keep' } })
  })
})
