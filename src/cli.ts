import { parseArgs } from 'node:util'
import { createKernel } from './app.js'
import { createLogger } from './logger.js'
import { createApiKey, listApiKeys, revokeApiKey } from './kernel/auth/api-keys.js'
import { ALL_SCOPES, isKnownScope } from './kernel/auth/scopes.js'
import { loadConfig } from './config.js'
import { bindAudit } from './kernel/audit/audit.js'
import { EVIDENCE_KINDS } from './modules/compliance/compliance.schemas.js'
import { userInfo } from 'node:os'
import { resolve } from 'node:path'
import { LocalBlobStore } from './kernel/blobs/blobs.js'
import { copyBlobs } from './kernel/blobs/copy-blobs.js'

const USAGE = `Usage: svc <command>
  workspaces create --name <name> [--owner-email <email>] [--json]
  keys create --scopes "<space-separated scopes>" [--workspace <id>] [--sandbox] [--name <name>] [--json]
  keys list [--json]
  keys revoke <id>
  members add --email <email> [--workspace <id>] [--role owner|admin|member] [--json]
                      make an active member of a workspace (live and sandbox; default: the first workspace, owner)
  members set-password --email <email> [--json]
                      set a member's sign-in password, read from standard input (first line); ends their sessions
  migrate
  secrets reseal      seal stored credentials under the current SERVER_SECRET (after a rotation)
  blobs copy --from-dir <dir> [--json]
                      copy every file of a local blob directory (the old BLOB_DIR) into the configured store
                      (BLOB_STORE=s3): with content types; run again, it copies only what is missing
  compliance evidence --workspace <id> [--sandbox] [--kind <kind>] [--from <date>] [--to <date>] [--json]
                      generate evidence reports now (default: every kind, the last 30 days)
Scopes: ${ALL_SCOPES.join(' ')}
Uses DATABASE_URL like the server.`

/** CLI changes are audited like API ones: the operator's login as the actor, the command as the action. */
const asCli = <T extends object>(owner: T, action: string, fields: string[]): T => bindAudit(owner, { actor: { type: 'cli', id: userInfo().username }, action: `cli ${action}`, fields })

function fail(message: string): never {
  process.stderr.write(`${message}\n`)
  process.exit(2)
}

export async function cli(argv: string[]): Promise<number> {
  const [group, action, ...rest] = argv
  if (!group || group === 'help' || group === '--help') {
    process.stdout.write(USAGE + '\n')
    return 0
  }
  const config = loadConfig()
  const { kernel, services } = await createKernel({ config, logger: createLogger({ ...config, logLevel: 'warn' }) })
  const out = (v: unknown, json: boolean, text: string) => process.stdout.write((json ? JSON.stringify(v) : text) + '\n')
  try {
    if (group === 'migrate') {
      out({ ok: true }, false, 'migrations are up to date')
      return 0
    }
    if (group === 'workspaces' && action === 'create') {
      const { values } = parseArgs({ args: rest, options: { name: { type: 'string' }, 'owner-email': { type: 'string' }, json: { type: 'boolean' } } })
      if (!values.name) fail('workspaces create needs --name')
      const ws = await services.workspaces.create({ name: values.name, ownerEmail: values['owner-email'] })
      out({ id: ws.id, object: 'workspace', name: ws.name, created_at: ws.created_at }, !!values.json, `created workspace ${ws.id} (${ws.name})`)
      return 0
    }
    if (group === 'keys' && action === 'create') {
      const { values } = parseArgs({
        args: rest,
        options: { scopes: { type: 'string' }, workspace: { type: 'string' }, sandbox: { type: 'boolean' }, name: { type: 'string' }, json: { type: 'boolean' } },
      })
      const scopes = (values.scopes ?? '').split(/[\s,]+/).filter(Boolean)
      if (scopes.length === 0) fail('keys create needs --scopes "read write …"')
      const unknown = scopes.filter((s) => !isKnownScope(s))
      if (unknown.length) fail(`unknown scope(s): ${unknown.join(' ')}; known: ${ALL_SCOPES.join(' ')}`)
      let workspaceId = values.workspace
      if (workspaceId) {
        const ok = await kernel.db.selectFrom('workspaces').select('id').where('id', '=', workspaceId).executeTakeFirst()
        if (!ok) fail(`no workspace ${workspaceId}`)
      } else {
        workspaceId = (await services.workspaces.first())?.id ?? (await services.workspaces.create({ name: 'Default workspace' })).id
      }
      const mode = values.sandbox ? 'test' : 'live'
      const tenant = { workspaceId: workspaceId!, mode } as const
      const owner = asCli({ ...tenant }, 'keys create', ['scopes', ...(values.name ? ['name'] : [])])
      const key = await kernel.transaction(owner, async (tx) => ({
        ...(await createApiKey(tx, kernel.clock, { workspaceId: tenant.workspaceId, mode, scopes, name: values.name })),
        object: 'api_key',
      }))
      const view = { id: key.id, key: key.key, workspace_id: key.workspace_id, scopes: key.scopes, mode }
      out(view, !!values.json, `${key.key}\n(id ${key.id}, workspace ${key.workspace_id}, ${mode}, scopes: ${scopes.join(' ')}; shown once)`)
      return 0
    }
    if (group === 'secrets' && action === 'reseal') {
      let total = 0
      for (const m of kernel.modules) if (m.reseal) total += await m.reseal(kernel, services)
      // The audit chains: links and checkpoints re-made under the current secret (a broken chain is left as it is).
      const broken: string[] = []
      for (const ws of await kernel.audit.workspaces()) {
        const n = await kernel.audit.reseal(ws)
        if (n === null) broken.push(ws)
        else total += n
      }
      if (broken.length) process.stderr.write(`audit chain broken, not re-sealed (keep SERVER_SECRET_PREVIOUS to verify it): ${broken.join(' ')}\n`)
      out({ resealed: total }, rest.includes('--json'), `resealed ${total} row(s) under the current server secret`)
      return 0
    }
    if (group === 'blobs' && action === 'copy') {
      const { values } = parseArgs({ args: rest, options: { 'from-dir': { type: 'string' }, json: { type: 'boolean' } } })
      if (!values['from-dir']) fail('blobs copy needs --from-dir <the local blob directory>')
      if (config.blobs.store === 'local' && resolve(config.blobs.dir) === resolve(values['from-dir'])) fail('blobs copy: the configured store is that directory already (set BLOB_STORE=s3 and S3_*)')
      const r = await copyBlobs(new LocalBlobStore(values['from-dir']), kernel.blobs)
      out(r, !!values.json, `copied ${r.copied} file(s) (${r.bytes} bytes), ${r.skipped} already there`)
      return 0
    }
    if (group === 'compliance' && action === 'evidence') {
      const { values } = parseArgs({
        args: rest,
        options: { workspace: { type: 'string' }, sandbox: { type: 'boolean' }, kind: { type: 'string' }, from: { type: 'string' }, to: { type: 'string' }, json: { type: 'boolean' } },
      })
      if (!values.workspace) fail('compliance evidence needs --workspace <id>')
      const kinds = values.kind ? [values.kind] : [...EVIDENCE_KINDS]
      const unknown = kinds.filter((k) => !(EVIDENCE_KINDS as readonly string[]).includes(k))
      if (unknown.length) fail(`unknown kind(s): ${unknown.join(' ')}; known: ${EVIDENCE_KINDS.join(' ')}`)
      const to = values.to ? new Date(values.to) : kernel.clock.now()
      const from = values.from ? new Date(values.from) : new Date(to.getTime() - 30 * 86400_000)
      if (Number.isNaN(from.getTime()) || Number.isNaN(to.getTime()) || from >= to) fail('--from and --to must be dates, from before to')
      const tenant = { workspaceId: values.workspace, mode: values.sandbox ? ('test' as const) : ('live' as const) }
      const made = []
      for (const kind of kinds) made.push(await services.compliance.evidence.generate(tenant, kind as (typeof EVIDENCE_KINDS)[number], { from: from.toISOString(), to: to.toISOString() }, 'manual'))
      out(
        made.map((e) => ({ id: e.id, kind: e.kind, sha256: e.sha256 })),
        !!values.json,
        made.map((e) => `${e.id}  ${e.kind}  sha256 ${e.sha256}`).join('\n'),
      )
      return 0
    }
    if (group === 'members' && action === 'add') {
      const { values } = parseArgs({ args: rest, options: { email: { type: 'string' }, workspace: { type: 'string' }, role: { type: 'string' }, json: { type: 'boolean' } } })
      if (!values.email || !/^[^@\s]+@[^@\s]+$/.test(values.email)) fail('members add needs --email <email>')
      const role = (values.role ?? 'owner') as 'owner' | 'admin' | 'member'
      if (!['owner', 'admin', 'member'].includes(role)) fail('--role is owner, admin or member')
      const workspaceId = values.workspace ?? (await services.workspaces.first())?.id
      if (!workspaceId) fail('no workspace yet: start the server once, or `svc workspaces create`')
      const email = values.email.toLowerCase()
      const made = []
      for (const mode of ['live', 'test'] as const) {
        const tenant = { workspaceId, mode }
        const existing = (await services.workspaces.listMembers(tenant, workspaceId, { limit: 100 })).data.find((m) => m.email === email)
        const member = existing ?? (await services.workspaces.invite(asCli({ ...tenant }, 'members add', ['email', 'role']), workspaceId, { email, role }))
        const active = member.status === 'active' ? member : await services.workspaces.updateMember(asCli({ ...tenant }, 'members add', ['status']), workspaceId, member.id, { status: 'active' })
        made.push({ id: active.id, mode, email, role: active.role, status: active.status })
      }
      out(made, !!values.json, `${email} is an active ${role} of ${workspaceId} (live and sandbox); set a password: svc members set-password --email ${email}`)
      return 0
    }
    if (group === 'members' && action === 'set-password') {
      const { values } = parseArgs({ args: rest, options: { email: { type: 'string' }, json: { type: 'boolean' } } })
      if (!values.email) fail('members set-password needs --email <email>; the password is read from standard input')
      // Never an argument: it would show in the process list and the shell history.
      const password = (await readStdin()).split(/\r?\n/)[0]
      if (!password) fail('members set-password reads the password from standard input (e.g. `read -rs P; printf "%s\\n" "$P" | svc members set-password --email …`)')
      const r = await services.signIn.setPassword(values.email, password).catch((err: Error) => fail(err.message))
      out(r, !!values.json, `password set for ${r.email}${r.sessions_ended ? ` (${r.sessions_ended} session(s) ended)` : ''}`)
      return 0
    }
    if (group === 'keys' && action === 'list') {
      const keys = await listApiKeys(kernel.db)
      const json = rest.includes('--json')
      out(
        keys,
        json,
        keys.map((k) => `${k.id}  ${k.mode.padEnd(4)}  ${k.prefix}…  ${k.workspace_id}  ${k.revoked_at ? 'revoked ' + k.revoked_at : 'active'}  ${k.scopes.join(' ')}`).join('\n') || '(no keys)',
      )
      return 0
    }
    if (group === 'keys' && action === 'revoke') {
      const id = rest[0]
      if (!id) fail('keys revoke needs a key id (key_…)')
      const row = await kernel.db.selectFrom('api_keys').select(['workspace_id', 'mode']).where('id', '=', id).executeTakeFirst()
      const ok =
        row &&
        (await kernel.transaction(asCli({ workspaceId: row.workspace_id, mode: row.mode }, 'keys revoke', ['revoked_at']), async (tx) =>
          (await revokeApiKey(tx, kernel.clock, id)) ? { id, object: 'api_key' } : null,
        ))
      if (!ok) fail(`no active key ${id}`)
      out({ id, revoked: true }, rest.includes('--json'), `revoked ${id}`)
      return 0
    }
    return fail(USAGE)
  } finally {
    kernel.blobs.close?.()
    await kernel.database.close()
  }
}

/** The first line of standard input; on a terminal, a prompt that does not echo what is typed. */
async function readStdin(): Promise<string> {
  const stdin = process.stdin
  if (!stdin.isTTY) {
    const chunks: Buffer[] = []
    for await (const chunk of stdin) chunks.push(chunk as Buffer)
    return Buffer.concat(chunks).toString('utf8')
  }
  process.stderr.write('password: ')
  stdin.setRawMode(true)
  let typed = ''
  try {
    for await (const chunk of stdin) {
      for (const c of (chunk as Buffer).toString('utf8')) {
        if (c === '\u0003') fail('\ncancelled')
        if (c === '\r' || c === '\n') return typed
        typed = c === '\u007f' || c === '\b' ? typed.slice(0, -1) : typed + c
      }
    }
    return typed
  } finally {
    stdin.setRawMode(false)
    stdin.pause()
    process.stderr.write('\n')
  }
}

cli(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`)
    process.exit(1)
  },
)
