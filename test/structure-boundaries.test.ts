// test-engines: sqlite (no database involved: one pass is enough; scripts/test.mjs leaves it out of PostgreSQL's)
import assert from 'node:assert/strict'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, posix } from 'node:path'
import { describe, it } from 'node:test'
import ts from 'typescript'
import { SCOPES } from '../src/kernel/auth/scopes.js'
import { MODULES } from '../src/modules/index.js'

// Module boundaries and tenant filters (issue 34; docs/architecture.md "Module boundaries"). A module reaches
// another only through what that one publishes: its service (services.<name>, for modules it `uses`), its
// TypeBox schemas (`*.schemas.ts`, the contract its API already publishes) and the hooks of its definition
// (privacy, retention, accessReview…); never its tables, its repository or its other files.
const ROOT = new URL('..', import.meta.url).pathname
/** Test files and test support: outside the production graph, free to reach anything. */
const isTest = (p: string) => /\.test\.ts$|\.testkit\.ts$|\.fixtures\.ts$/.test(p)

function files(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(join(ROOT, dir))) {
    const p = posix.join(dir, name)
    if (statSync(join(ROOT, p)).isDirectory()) files(p, out)
    else if (name.endsWith('.ts') && !isTest(p)) out.push(p)
  }
  return out
}
const source = files('src').map((path) => ({ path, text: readFileSync(join(ROOT, path), 'utf8') }))
const moduleOf = (path: string) => (path.startsWith('src/modules/') && path.split('/').length > 3 ? path.split('/')[2] : null)

/** Every table declared in `*.tables.ts` (`interface Tables { name: Iface }`), with its owner (a module, or `kernel`) and columns. */
const TABLES = new Map<string, { owner: string; columns: string[] }>()
for (const f of source.filter((x) => x.path.endsWith('.tables.ts'))) {
  const merged = /interface Tables \{([^}]*)\}/.exec(f.text)
  if (!merged) continue
  for (const [, table, iface] of merged[1].matchAll(/(\w+): (\w+)/g)) {
    const body = new RegExp(`interface ${iface}\\b[^{]*\\{([\\s\\S]*?)\\n\\}`).exec(f.text)
    assert.ok(body, `${f.path}: interface ${iface} of table ${table}`)
    TABLES.set(table, { owner: moduleOf(f.path) ?? 'kernel', columns: [...body[1].matchAll(/^\s+(\w+)\??:/gm)].map((m) => m[1]) })
  }
}
const TENANT_TABLES = new Set([...TABLES].filter(([, t]) => t.columns.includes('workspace_id')).map(([name]) => name))

/** The tables a file's queries name: query-builder calls and the FROM / JOIN / UPDATE / INTO of raw sql`` templates. */
function tablesNamed(text: string): string[] {
  const built = [...text.matchAll(/\b(?:selectFrom|updateTable|deleteFrom|insertInto|innerJoin|leftJoin|rightJoin|fullJoin|mergeInto)\(\s*['"`](\w+)/g)].map((m) => m[1])
  const raw = [...text.matchAll(/sql(?:<[^>]*>)?`([^`]*)`/g)].flatMap((s) => [...s[1].matchAll(/\b(?:from|join|update|into)\s+"?(\w+)"?/gi)].map((m) => m[1]))
  return [...built, ...raw].filter((t) => TABLES.has(t))
}

/** Where a query is counted: its module, `kernel`, or the file (the CLI). Splitting a file inside a module keeps its count. */
const areaOf = (path: string) => moduleOf(path) ?? (path.startsWith('src/kernel/') ? 'kernel' : path)

/**
 * Reads, updates and deletes of a tenant table that do not start from `scoped(db, tenant)` or
 * `workspaceScoped(db, id)` (kernel/db/scoped.ts), as `area table` (one entry per query).
 */
function unscopedTenantQueries(path: string, text: string): string[] {
  const out: string[] = []
  for (const m of text.matchAll(/\.(?:selectFrom|updateTable|deleteFrom)\(\s*['"](\w+)(?: as \w+)?['"]/g)) {
    if (!TENANT_TABLES.has(m[1])) continue
    const before = text.slice(Math.max(0, m.index - 200), m.index)
    if (/\b(?:scoped|workspaceScoped)\([^()]*\)\s*$/.test(before)) continue
    out.push(`${areaOf(path)} ${m[1]}`)
  }
  return out
}

/**
 * The legitimate reads of tenant tables that answer to no one tenant, per module (or kernel, or file) and
 * table: how many such queries there are and why. A new unscoped query raises a count and fails the test: scope it, or add it
 * here with its reason. (Inserts are not reads; the row they write names its tenant.)
 */
const CROSS_TENANT: Record<string, [count: number, reason: string]> = {
  'src/cli.ts api_keys': [1, 'the operator revokes a key by id, across workspaces (svc keys revoke)'],
  'kernel api_keys': [4, 'the bearer lookup by key hash (no tenant yet), revoke and last-used by a key id already resolved, and the operator listing (svc keys list)'],
  'kernel audit_log': [8, 'the sealer walks every workspace’s unsealed entries and seals them by id; a one-off upgrade of every chain'],
  'kernel events': [2, 'the live feed tails every committed event (each subscriber filters its tenant); an outbox row’s event by id'],
  'agents agents': [3, 'secret re-sealing walks every tenant (svc secrets reseal); the health probe'],
  'bots bots': [1, 'the health probe'],
  'bots bot_tools': [2, 'secret re-sealing walks every tenant'],
  'bots bot_versions': [2, 'secret re-sealing walks every tenant'],
  'channels channels': [4, 'a provider’s callback finds its channel by id, the public widget by its widget key, before any tenant is known; secret re-sealing'],
  'channels channel_emails': [3, 'inbound mail finds its channel by address; secret re-sealing'],
  'channels channel_email_conversations': [1, 'a reply finds its conversation by its unguessable reply token'],
  'channels channel_web_attachments': [1, 'a signed attachment link names the attachment only'],
  'channels channel_media_pending': [1, 'the media sweep finds every tenant’s folders whose message never committed (each then taken in its tenant)'],
  'compliance dsar_requests': [2, 'an export download link by its token hash; the health probe'],
  'compliance retention_policies': [1, 'the retention sweep enforces every tenant’s policy'],
  'compliance audit_log': [1, 'the evidence schedule lists the tenants that have audit entries'],
  'developer oauth_apps': [3, 'a client authenticates by client id (any workspace may authorize an app); update and delete of an app already found in its tenant'],
  'developer oauth_grants': [4, 'a code exchange by code hash and its one-time use; an app’s grants in every workspace (deleting an app ends them); the expiry sweep'],
  'developer oauth_tokens': [6, 'the bearer lookup by token hash, its rotation and revocation by id; a subquery correlated to a scoped grant; the expiry sweep'],
  'inbox inbox_conversation_tags': [1, 'a subquery correlated to the scoped conversation row'],
  'inbox inbox_conversations': [1, 'the health probe'],
  'knowledge knowledge_documents': [1, 'the health backlog counts waiting documents across tenants'],
  'leads leads': [1, 'the health probe'],
  'voice voice_numbers': [2, 'a carrier’s inbound call finds its number by E.164; the simulated carrier skips numbers any workspace holds'],
  'voice voice_calls': [3, 'a carrier’s status callback finds its call by id or carrier SID; the health probe'],
  'webhooks webhook_deliveries': [
    5,
    'the delivery claimer works every tenant’s due deliveries by id; the metrics counts; Playground diagnostics by delivery id (then checked against the inbox token)',
  ],
  'webhooks webhook_attempts': [2, 'the delivery worker records attempts by id; the metrics counts'],
  'webhooks webhook_endpoints': [2, 'secret re-sealing walks every tenant'],
  'workspaces workspace_members': [3, 'a person signs in by email before choosing a workspace; an invitation by its token'],
  'workspaces workspace_settings': [1, 'secret re-sealing walks every tenant’s CRM and voice settings'],
}

describe('structure: module boundaries', () => {
  it('a module queries only its own tables and the kernel’s: another module’s data comes through that module’s service', () => {
    assert.ok(TABLES.get('inbox_conversations')?.owner === 'inbox' && TABLES.get('api_keys')?.owner === 'kernel', 'tables and owners were read')
    const crossing: string[] = []
    for (const f of source) {
      const own = moduleOf(f.path)
      if (!own) continue
      for (const t of tablesNamed(f.text)) if (TABLES.get(t)!.owner !== own && TABLES.get(t)!.owner !== 'kernel') crossing.push(`${f.path} → ${t} (${TABLES.get(t)!.owner})`)
    }
    assert.deepEqual(crossing, [])
    // What v1 once did (its repository read inbox's conversations), and a raw query, are both seen.
    assert.deepEqual(tablesNamed(`scoped(db, tenant).selectFrom('inbox_conversations').select('id')`), ['inbox_conversations'])
    assert.deepEqual(tablesNamed('sql`select count(*) from leads join inbox_messages on x`'), ['leads', 'inbox_messages'])
  })

  it('a module calls only its own services and those of the modules it `uses` (initialised before it)', () => {
    // Which module puts each service in the container (`services.<name> = …` in its init).
    const provider = new Map<string, string>()
    for (const f of source) for (const m of f.text.matchAll(/\bservices\.(\w+)\s*=[^=]/g)) if (moduleOf(f.path)) provider.set(m[1], moduleOf(f.path)!)
    assert.equal(provider.get('oauth'), 'developer', 'service providers were read')
    const uses = new Map(MODULES.map((m) => [m.name, new Set([m.name, ...(m.uses ?? [])])]))
    const crossing: string[] = []
    for (const f of source) {
      const own = moduleOf(f.path)
      if (!own || !uses.has(own)) continue
      for (const m of f.text.matchAll(/\bservices\??\.(\w+)/g)) {
        const from = provider.get(m[1])
        if (from && !uses.get(own)!.has(from)) crossing.push(`${f.path}: services.${m[1]} is ${from}'s, not in ${own}'s uses`)
      }
    }
    assert.deepEqual([...new Set(crossing)], [])
  })

  it('a module imports from another module only its published schemas (*.schemas.ts), in every import form', () => {
    // Static, type-only, export-from and dynamic imports alike (the TypeScript parser, not a pattern).
    const crossing: string[] = []
    for (const f of source) {
      const own = moduleOf(f.path)
      if (!own) continue
      const file = ts.createSourceFile(f.path, f.text, ts.ScriptTarget.Latest, false)
      const specs: string[] = []
      const visit = (node: ts.Node): void => {
        if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) specs.push(node.moduleSpecifier.text)
        else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) specs.push(node.argument.literal.text)
        else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteralLike(node.arguments[0])) specs.push(node.arguments[0].text)
        ts.forEachChild(node, visit)
      }
      visit(file)
      for (const spec of specs.filter((s) => s.startsWith('.'))) {
        const target = posix.normalize(posix.join(posix.dirname(f.path), spec))
        const other = moduleOf(target)
        if (other && other !== own && !target.endsWith('.schemas.js')) crossing.push(`${f.path} → ${target}`)
      }
    }
    assert.deepEqual(crossing, [])
  })

  it('modules declare their scopes; the kernel names none of them and assembles them in MODULES order', () => {
    const resources = MODULES.flatMap((m) => (m.scopes ?? []).map((s) => s.resource))
    assert.deepEqual(resources, ['conversations', 'messages', 'bots', 'leads', 'webhooks'])
    assert.deepEqual(SCOPES.all, ['read', 'write', 'admin', ...resources.flatMap((r) => [`${r}:read`, `${r}:write`])])
    assert.deepEqual(SCOPES.memberWrites, ['conversations:write', 'messages:write', 'leads:write'], 'the day-to-day writes members hold by role')
    const kernel = source.filter((f) => f.path.startsWith('src/kernel/'))
    const named = kernel.filter((f) => resources.some((r) => new RegExp(`['"\`]${r}:(read|write)['"\`]`).test(f.text))).map((f) => f.path)
    assert.deepEqual(named, [])
    // Every scope a route requires is declared (assembly refuses to start otherwise), and one resource has one owner.
    const wrong = { name: 'stray', scopes: [], routes: [{ operationId: 'strayOp', scope: 'invoices:read' }] }
    assert.throws(() => SCOPES.assemble([...MODULES, wrong]), /strayOp \(stray\) requires invoices:read/)
    assert.throws(() => SCOPES.assemble([...MODULES, { name: 'twin', scopes: [{ resource: 'leads' }], routes: [] }]), /'leads' is declared by both leads and twin/)
    SCOPES.assemble(MODULES)
    assert.equal(SCOPES.all.length, 13)
  })

  it('the schemas that list every scope are complete once assembled, wrapped ones (Optional) included', async () => {
    const { CreateApiKeyBody } = await import('../src/modules/developer/keys/keys.schemas.js')
    const { CreateOAuthAppBody, UpdateOAuthAppBody } = await import('../src/modules/developer/oauth/oauth.schemas.js')
    const keyScopes = JSON.parse(JSON.stringify(CreateApiKeyBody)).properties.scopes
    assert.deepEqual([keyScopes.items.enum, keyScopes.maxItems], [SCOPES.all, 13])
    for (const body of [CreateOAuthAppBody, UpdateOAuthAppBody]) {
      const allowed = JSON.parse(JSON.stringify(body)).properties.allowed_scopes
      assert.deepEqual([allowed.items.anyOf.map((s: { const: string }) => s.const), allowed.maxItems], [SCOPES.all, 13])
    }
  })
})

describe('structure: tenant filters in SQL', () => {
  it('every read, update and delete of a tenant table starts from scoped(), or is a listed cross-tenant query with its reason', () => {
    assert.ok(TENANT_TABLES.has('api_keys') && TENANT_TABLES.has('inbox_messages') && !TENANT_TABLES.has('workspaces'), 'tenant tables were found')
    const found = new Map<string, number>()
    for (const f of source) for (const q of unscopedTenantQueries(f.path, f.text)) found.set(q, (found.get(q) ?? 0) + 1)
    const problems: string[] = []
    for (const [q, n] of found) {
      const listed = CROSS_TENANT[q]
      if (!listed) problems.push(`${q}: ${n} unscoped quer${n === 1 ? 'y' : 'ies'}: filter by tenant in SQL (scoped(db, tenant)), or list it with its reason`)
      else if (n > listed[0]) problems.push(`${q}: ${n} unscoped queries, ${listed[0]} listed: a new one must be scoped, or listed with its reason`)
    }
    // A listed entry that no longer matches is stale: lower its count (or drop it), so the list stays exact.
    for (const [q, [n]] of Object.entries(CROSS_TENANT)) if ((found.get(q) ?? 0) < n) problems.push(`${q}: listed ${n}, found ${found.get(q) ?? 0}: update the list`)
    assert.deepEqual(problems, [])
  })

  it('the check sees an unscoped read, and lets a scoped one pass', () => {
    // What the access review once did: load every key, then filter the tenant in JavaScript.
    assert.deepEqual(unscopedTenantQueries('src/kernel/auth/x.ts', `const rows = await db\n    .selectFrom('api_keys')\n    .selectAll()`), ['kernel api_keys'])
    assert.deepEqual(unscopedTenantQueries('x.ts', `await scoped(db, tenant)\n    .selectFrom('api_keys')\n    .selectAll()`), [])
    assert.deepEqual(unscopedTenantQueries('x.ts', `db.selectFrom('workspaces').selectAll()`), [], 'a table without workspace_id is no tenant table')
  })
})

describe('structure: no async context', () => {
  it('nothing in the service uses AsyncLocalStorage or async hooks: on Node 20 one in use slows every promise of the process (finding 26)', () => {
    // Who made a change travels with the transaction's owner (kernel/audit bindAudit), the idempotency claim too.
    const users = source.filter((f) => /\bAsyncLocalStorage\b|\bcreateHook\s*\(|\bAsyncResource\b/.test(f.text.replace(/\/\/.*|\/\*[\s\S]*?\*\//g, '')))
    assert.deepEqual(
      users.map((f) => f.path),
      [],
    )
  })
})
