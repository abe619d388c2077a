import { createHmac, timingSafeEqual } from 'node:crypto'
import { iso, type Clock } from '../clock.js'
import type { Executor } from '../db/database.js'
import '../db/kernel.tables.js'
import { deriveKey } from './server-secret.js'

const SETTING = 'server_secret_verifier'
const LABEL = 'svc:server-secret-verifier:v1'

/** Names the secret without revealing it: HMAC of a fixed label under a key derived for this purpose only. */
export function secretVerifier(secret: Buffer): string {
  return createHmac('sha256', deriveKey(secret, 'server-secret-verifier')).update(LABEL).digest('hex')
}

/** Where the running secret came from, for the message that says which setting to fix. */
export interface SecretSource {
  source: 'env' | 'file' | 'generated'
  path?: string
  dataDir: string
}

/** Thrown at start when the database was sealed under another server secret: the process must not run. */
export class ServerSecretMismatch extends Error {
  constructor(from: SecretSource) {
    const which =
      from.source === 'env'
        ? 'SERVER_SECRET is set to another secret'
        : `SERVER_SECRET is not set, so this node uses the secret generated in ${from.path ?? `${from.dataDir}/server-secret`} (DATA_DIR=${from.dataDir}), which is another secret`
    super(
      `This database was first started under another server secret: ${which}. Values sealed, signed and chained under the first one ` +
        '(credentials, cursors, the audit chain) would fail later as 500s, so this node refuses to start. Give every node the same ' +
        'SERVER_SECRET (or the same DATA_DIR holding server-secret); when rotating, list the old secret in SERVER_SECRET_PREVIOUS.',
    )
    this.name = 'ServerSecretMismatch'
  }
}

const same = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b))

/**
 * Every node checks its server secret against the verifier the database recorded at its first start,
 * before it serves or runs anything. The first node records its own (a race between two first nodes:
 * one insert wins and the other compares against it). A verifier made under a secret now listed in
 * SERVER_SECRET_PREVIOUS is a rotation: the current secret's verifier replaces it.
 */
export async function checkServerSecret(db: Executor, clock: Clock, secret: Buffer, previous: Buffer[], from: SecretSource): Promise<'recorded' | 'matched' | 'rotated'> {
  const mine = secretVerifier(secret)
  const now = iso(clock.now())
  const inserted = await db
    .insertInto('instance_settings')
    .values({ key: SETTING, value: mine, updated_at: now })
    .onConflict((oc) => oc.column('key').doNothing())
    .executeTakeFirst()
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 1) return 'recorded'
  const row = await db.selectFrom('instance_settings').select('value').where('key', '=', SETTING).executeTakeFirstOrThrow()
  if (same(row.value, mine)) return 'matched'
  if (previous.some((p) => same(row.value, secretVerifier(p)))) {
    await db.updateTable('instance_settings').set({ value: mine, updated_at: now }).where('key', '=', SETTING).where('value', '=', row.value).execute()
    return 'rotated'
  }
  throw new ServerSecretMismatch(from)
}
