import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { parse } from '@cdktn/hcl2json'
import { assertProblem, createTestApp, get, json, ok, patch, post, type TestApp } from '../../../../../test/helpers.js'
import type { TerraformResource } from '../terraform-attributes.js'

// hcl2json keeps `${` and `%{` of literal text escaped (Terraform's JSON syntax reads them as templates too).
const literal = (v: unknown): unknown =>
  typeof v === 'string' ? v.replaceAll('$${', '${').replaceAll('%%{', '%{') : Array.isArray(v) ? v.map(literal) : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, literal(x)])) : v

/** What a configuration must set for `object`: its configurable, non-secret, non-null values (nested objects likewise). */
function expected(resource: TerraformResource, object: Record<string, any>): Record<string, unknown> {
  const pick = (attributes: TerraformResource['attributes'], o: Record<string, any>): Record<string, unknown> =>
    Object.fromEntries(
      attributes
        .filter((a) => (a.required || a.optional) && !a.sensitive && o[a.name] !== null && o[a.name] !== undefined)
        .map((a): [string, unknown] => {
          const v = o[a.name]
          if (!a.attributes) return [a.name, v]
          const inner = (x: unknown): unknown => (x && typeof x === 'object' ? pick(a.attributes as TerraformResource['attributes'], x as Record<string, any>) : x)
          return [a.name, a.type === 'list' ? v.map(inner) : a.type === 'map' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, inner(x)])) : inner(v)]
        }),
    )
  return pick(resource.attributes, object)
}

describe('listTerraformResources', () => {
  let h: TestApp
  const made: Record<string, any[]> = {}
  const hcl = async (key?: string, query = '') => {
    const res = await h.request({ method: 'GET', url: `${key === h.a.test ? '/sandbox/v2' : '/v2'}/terraform-resources?format=hcl${query}`, ...(key ? { key } : {}) })
    assert.equal(res.statusCode, 200, res.body)
    assert.match(String(res.headers['content-type']), /^text\/plain; charset=utf-8/)
    return { text: res.body, tf: literal(await parse('svc.tf', res.body)) as any }
  }

  before(async () => {
    h = await createTestApp()
    const create = async (type: string, url: string, body: unknown) => (made[type] ??= []).push(await ok(post(h, url, body), 201))
    await create('svc_bot', '/bots', { name: 'Support', instructions: 'Greet {{contact.name}}; never print ${secrets} or %{ if }.\n"Quoted" \\ backslash', channels: ['chat', 'email'], metadata: { team: 'eu', 'cost-center': '42' } })
    await create('svc_bot', '/bots', { name: 'Support' })
    await create('svc_bot', '/bots', { name: '1st Line — Ünïcode!' })
    await create('svc_knowledge_base', '/knowledge/bases', { name: 'Help Center' })
    await create('svc_agent', '/agents', { name: 'Refunds' })
    await create('svc_webhook_endpoint', '/webhooks/endpoints', { url: 'https://example.com/hooks/crm', event_types: ['conversation.created'] })
    await create('svc_voice_number', '/voice/numbers', { country: 'US' })
    await create('svc_reply_template', '/inbox/templates', { name: 'Pricing', content: 'Our plans: {{contact.name}}', shortcut: 'pricing' })
    await create('svc_tag', '/inbox/tags', { name: 'VIP' })
    await create('svc_oauth_app', '/oauth/apps', { name: 'Partner portal', redirect_uris: ['https://partner.example.com/callback'], allowed_scopes: ['read', 'leads:write'] })
    await ok(patch(h, '/compliance/retention', { policies: { messages: 365, api_logs: 'keep' } }))
  })
  after(() => h.close())

  it('lists the resource types with attributes, import format and operations, sorted by type, page by page', async () => {
    const first = await ok(get(h, '/terraform-resources?limit=3'))
    assert.deepEqual(first.data.map((r: any) => r.type), ['svc_agent', 'svc_bot', 'svc_knowledge_base'])
    assert.equal(first.has_more, true)
    const rest = await ok(get(h, `/terraform-resources?limit=100&cursor=${first.next_cursor}`))
    assert.deepEqual(rest.data.map((r: any) => r.type), ['svc_oauth_app', 'svc_reply_template', 'svc_retention_policy', 'svc_tag', 'svc_voice_number', 'svc_webhook_endpoint'])
    const bot = first.data[1]
    assert.equal(bot.object, 'terraform_resource')
    assert.deepEqual(bot.import, { by: 'id', id_format: 'bot_…', example: 'bot_01JD0000000000000000000000' })
    assert.ok(bot.attributes.some((a: any) => a.name === 'name' && a.required && a.type === 'string'))
    const only = await ok(get(h, '/terraform-resources?type=svc_tag'))
    assert.deepEqual(only.data.map((r: any) => r.type), ['svc_tag'])
    assert.deepEqual((await ok(get(h, '/terraform-resources?type=svc_nothing'))).data, [])
    assertProblem(await get(h, `/terraform-resources?type=svc_bot&cursor=${first.next_cursor}`), 422, 'invalid_cursor')
    assertProblem(await get(h, '/terraform-resources?format=yaml'), 422, 'validation_failed')
    assertProblem(await get(h, '/terraform-resources?type=bot'), 422, 'validation_failed')
  })

  it('format=hcl: every object as an import block and a resource block whose values parse back to the object’s configuration', async () => {
    const types: TerraformResource[] = (await ok(get(h, '/terraform-resources?limit=100'))).data
    const { text, tf } = await hcl()
    assert.match(text, /^# Terraform configuration of the objects of workspace ws_/)
    const imports = new Map<string, string>(tf.import.map((i: any) => [i.id, i.to.replace(/^\$\{(.*)\}$/, '$1')]))
    for (const [type, objects] of Object.entries(made)) {
      const resource = types.find((r) => r.type === type)!
      for (const created of objects) {
        // Imported by the attribute the type names (`id`; `client_id` for OAuth apps).
        const importId = created[(resource.import as { by: string }).by]
        const address = imports.get(importId)
        assert.ok(address, `${type} ${importId} is imported`)
        const [addrType, label] = address.split('.')
        assert.equal(addrType, type)
        assert.match(label, /^[a-z][a-z0-9_]*$/)
        const block = tf.resource[type][label]
        assert.equal(block.length, 1)
        // The create answer: its extra fields (a secret shown once) are sensitive and left out.
        assert.deepEqual(block[0], expected(resource, created), `${type} ${label}`)
      }
    }
    // Labels: sanitised, unique within a type.
    assert.deepEqual(Object.keys(tf.resource.svc_bot).sort(), ['bot_1st_line_unicode', 'support', 'support_2'])
    assert.deepEqual(Object.keys(tf.resource.svc_webhook_endpoint), ['example_com_hooks_crm'])
    // The retention singleton, imported by the workspace id.
    assert.equal(imports.get(h.a.workspaceId), 'svc_retention_policy.workspace')
    assert.equal(tf.resource.svc_retention_policy.workspace[0].policies.messages, 365)
    assert.equal(tf.resource.svc_retention_policy.workspace[0].policies.api_logs, 'keep')
    // Template sequences stay text; secrets never leave.
    assert.equal(tf.resource.svc_bot.support[0].instructions, made.svc_bot[0].instructions)
    assert.ok(!text.includes(made.svc_webhook_endpoint[0].secret))
    assert.ok(!text.includes(made.svc_oauth_app[0].client_secret))
    assert.doesNotMatch(text, /signing_secret|created_at|"status"/)
  })

  it('type narrows the export; another workspace and the sandbox export only their own objects', async () => {
    const { tf } = await hcl(undefined, '&type=svc_tag')
    assert.deepEqual(Object.keys(tf.resource), ['svc_tag'])
    const other = await hcl(h.b.live)
    assert.deepEqual(Object.keys(other.tf.resource), ['svc_retention_policy'], 'workspace B has only its default retention policies')
    assert.ok(!other.text.includes(made.svc_bot[0].id))
    const sandbox = await hcl(h.a.test)
    assert.ok(!sandbox.text.includes(made.svc_bot[0].id))
  })

  it('is documented as JSON or text/plain, without byte ranges', async () => {
    const doc = json(await h.request({ method: 'GET', url: '/v2/openapi.json', key: null }))
    const op = doc.paths['/terraform-resources'].get
    assert.deepEqual(Object.keys(op.responses['200'].content).sort(), ['application/json', 'text/plain'])
    assert.equal(op.responses['206'], undefined)
    assert.equal(op['x-required-scope'], 'read')
  })
})
