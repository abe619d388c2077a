import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { parse } from '@cdktn/hcl2json'
import { assertProblem, createTestApp, get, json, ok, patch, post, type TestApp } from '../../../../../test/helpers.js'
import type { TerraformResource } from '../terraform-attributes.js'
import { jsonencoded } from '../terraform.testkit.js'

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

/** HashiCorp's terraform, where installed: its `fmt` parses the export with the real HCL parser. */
const TERRAFORM = !spawnSync('terraform', ['version'], { encoding: 'utf8' }).error

describe('listTerraformResources', () => {
  let h: TestApp
  const made: Record<string, any[]> = {}
  const hcl = async (key?: string, query = '') => {
    const res = await h.request({ method: 'GET', url: `${key === h.a.test ? '/sandbox/v2' : '/v2'}/terraform-resources?format=hcl${query}`, ...(key ? { key } : {}) })
    assert.equal(res.statusCode, 200, res.body)
    assert.match(String(res.headers['content-type']), /^text\/plain; charset=utf-8/)
    return { text: res.body, tf: (await parse('svc.tf', res.body)) as any }
  }

  before(async () => {
    h = await createTestApp()
    const create = async (type: string, url: string, body: unknown) => (made[type] ??= []).push(await ok(post(h, url, body), 201))
    await create('svc_bot', '/bots', {
      name: 'Support',
      instructions: 'Greet {{contact.name}}; never print ${secrets} or %{ if }.\n"Quoted" \\ backslash',
      channels: ['chat', 'email'],
      metadata: { team: 'eu', 'cost-center': '42' },
    })
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
    assert.deepEqual(
      first.data.map((r: any) => r.type),
      ['svc_agent', 'svc_bot', 'svc_knowledge_base'],
    )
    assert.equal(first.has_more, true)
    const rest = await ok(get(h, `/terraform-resources?limit=100&cursor=${first.next_cursor}`))
    assert.deepEqual(
      rest.data.map((r: any) => r.type),
      ['svc_oauth_app', 'svc_reply_template', 'svc_retention_policy', 'svc_tag', 'svc_voice_number', 'svc_webhook_endpoint'],
    )
    const bot = first.data[1]
    assert.equal(bot.object, 'terraform_resource')
    assert.deepEqual(bot.import, { by: 'id', id_format: 'bot_…', example: 'bot_01JD0000000000000000000000' })
    assert.ok(bot.attributes.some((a: any) => a.name === 'name' && a.required && a.type === 'string'))
    const only = await ok(get(h, '/terraform-resources?type=svc_tag'))
    assert.deepEqual(
      only.data.map((r: any) => r.type),
      ['svc_tag'],
    )
    assert.deepEqual((await ok(get(h, '/terraform-resources?type=svc_nothing'))).data, [])
    assertProblem(await get(h, `/terraform-resources?type=svc_bot&cursor=${first.next_cursor}`), 422, 'invalid_cursor')
    assertProblem(await get(h, '/terraform-resources?format=yaml'), 422, 'validation_failed')
    assertProblem(await get(h, '/terraform-resources?type=bot'), 422, 'validation_failed')
  })

  it('format=hcl: the restapi provider block, and every object as an import and a restapi_object whose data parses back to its configuration', async () => {
    const types: TerraformResource[] = (await ok(get(h, '/terraform-resources?limit=100'))).data
    const { text, tf } = await hcl()
    assert.match(text, /^# Terraform configuration of the objects of workspace ws_/)
    assert.deepEqual(tf.terraform[0].required_providers[0].restapi, { source: 'Mastercard/restapi', version: '~> 3.0' })
    assert.match(tf.provider.restapi[0].uri, /^https?:\/\/[^/]+\/v2$/)
    assert.equal(tf.provider.restapi[0].bearer_token, '${var.svc_api_key}')
    const imports = new Map<string, string>(tf.import.map((i: any) => [i.id, i.to.replace(/^\$\{restapi_object\.(.*)\}$/, '$1')]))
    const readByList = new Set(['svc_oauth_app', 'svc_reply_template', 'svc_tag'])
    for (const [type, objects] of Object.entries(made)) {
      const resource = types.find((r) => r.type === type)!
      for (const created of objects) {
        const id = created[(resource.import as { by: string }).by]
        if (readByList.has(type)) {
          // No GET by id: a data source that finds it in the list (the provider's import could not read it).
          const found = Object.values(tf.data.restapi_object).find((d: any) => d[0].search_value === id) as any
          assert.ok(found, `${type} ${id} is a data source`)
          assert.equal(found[0].search_key, resource.import.by)
          assert.equal(found[0].results_key, 'data')
          continue
        }
        // Imported by `/<collection path>/<id>`, which the provider reads with GET.
        const [importId, label] = [...imports].find(([importId]) => importId.endsWith(`/${id}`)) ?? []
        assert.ok(label, `${type} ${id} is imported`)
        assert.match(label, /^[a-z][a-z0-9_]*$/)
        const block = tf.resource.restapi_object[label][0]
        assert.equal(importId, `${block.path}/${id}`)
        assert.equal((await get(h, importId!)).statusCode, 200, `GET ${importId} reads the object`)
        // The create answer: its extra fields (a secret shown once) are sensitive and left out.
        assert.deepEqual(await jsonencoded(block.data), expected(resource, created), `${type} ${label}`)
      }
    }
    // Labels: the type's noun and the name, sanitised, unique.
    assert.deepEqual(
      Object.keys(tf.resource.restapi_object)
        .filter((l) => l.startsWith('bot_'))
        .sort(),
      ['bot_1st_line_unicode', 'bot_support', 'bot_support_2'],
    )
    assert.ok(tf.resource.restapi_object.webhook_endpoint_example_com_hooks_crm)
    // Agents cannot be deleted; a number's country forces a new one and is left out of its updates.
    assert.deepEqual(tf.resource.restapi_object.agent_refunds[0].lifecycle, [{ prevent_destroy: true }])
    const number = Object.entries(tf.resource.restapi_object).find(([l]) => l.startsWith('voice_number'))![1] as any
    assert.ok(number[0].force_new.includes('country'))
    assert.equal(((await jsonencoded(number[0].update_data)) as any).country, undefined)
    // The retention singleton, imported by its own path.
    assert.equal(imports.get('/compliance/retention'), 'retention_policy')
    const retention = tf.resource.restapi_object.retention_policy[0]
    assert.deepEqual([retention.path, retention.object_id, retention.create_method], ['/compliance', 'retention', 'PATCH'])
    assert.equal((await get(h, '/compliance/retention')).statusCode, 200)
    const policies = ((await jsonencoded(retention.data)) as any).policies
    assert.deepEqual([policies.messages, policies.api_logs], [365, 'keep'])
    // Template sequences stay text; secrets never leave.
    assert.equal(((await jsonencoded(tf.resource.restapi_object.bot_support[0].data)) as any).instructions, made.svc_bot[0].instructions)
    assert.ok(!text.includes(made.svc_webhook_endpoint[0].secret))
    assert.ok(!text.includes(made.svc_oauth_app[0].client_secret))
    assert.doesNotMatch(text, /signing_secret|created_at|"status"/)
  })

  it(
    'terraform fmt -check accepts the export as written (HashiCorp’s own parser and formatter; skipped where terraform is not installed)',
    { skip: TERRAFORM ? false : 'terraform is not installed' },
    async () => {
      const { text } = await hcl()
      const dir = mkdtempSync(join(tmpdir(), 'svc-tf-'))
      try {
        writeFileSync(join(dir, 'main.tf'), text)
        const r = spawnSync('terraform', ['fmt', '-check', '-diff', '-no-color', 'main.tf'], { cwd: dir, encoding: 'utf8', env: { ...process.env, TF_CLI_CONFIG_FILE: '/dev/null' } })
        assert.equal(r.status, 0, `${r.stdout}${r.stderr}`)
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    },
  )

  it('type narrows the export; another workspace and the sandbox export only their own objects', async () => {
    const { tf } = await hcl(undefined, '&type=svc_tag')
    assert.equal(tf.resource, undefined)
    assert.deepEqual(Object.keys(tf.data.restapi_object), ['tag_vip'])
    const other = await hcl(h.b.live)
    assert.deepEqual(Object.keys(other.tf.resource.restapi_object), ['retention_policy'], 'workspace B has only its default retention policies')
    assert.equal(other.tf.data, undefined)
    assert.ok(!other.text.includes(made.svc_bot[0].id))
    const sandbox = await hcl(h.a.test)
    assert.ok(!sandbox.text.includes(made.svc_bot[0].id))
    assert.match(sandbox.tf.provider.restapi[0].uri, /\/sandbox\/v2$/)
  })

  it('is documented as JSON or text/plain, without byte ranges', async () => {
    const doc = json(await h.request({ method: 'GET', url: '/v2/openapi.json', key: null }))
    const op = doc.paths['/terraform-resources'].get
    assert.deepEqual(Object.keys(op.responses['200'].content).sort(), ['application/json', 'text/plain'])
    assert.equal(op.responses['206'], undefined)
    assert.equal(op['x-required-scope'], 'read')
  })
})
