import { hkdfSync, randomBytes } from 'node:crypto'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/** File (under the data directory) holding the secret generated on first start when SERVER_SECRET is unset. */
export const SECRET_FILE = 'server-secret'
const MIN_SECRET_CHARS = 32

/**
 * The server secret keys everything this service signs or encrypts (cursors, secrets at rest). It comes
 * from SERVER_SECRET, or is generated once into `<dataDir>/server-secret` (mode 0600) so that the
 * two-command quick start needs no setup. Several nodes must share it: set SERVER_SECRET on each.
 */
export function loadServerSecret(opts: { secret: string | null; dataDir: string }): { secret: Buffer; source: 'env' | 'file' | 'generated'; path?: string } {
  if (opts.secret !== null) {
    if (opts.secret.length < MIN_SECRET_CHARS) throw new Error(`SERVER_SECRET must be at least ${MIN_SECRET_CHARS} characters (use: openssl rand -base64 32)`)
    return { secret: Buffer.from(opts.secret, 'utf8'), source: 'env' }
  }
  const path = join(opts.dataDir, SECRET_FILE)
  const read = () => Buffer.from(readFileSync(path, 'utf8').trim(), 'base64url')
  try {
    return { secret: read(), source: 'file', path }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err
  }
  mkdirSync(opts.dataDir, { recursive: true })
  try {
    // 'wx': two processes starting at once cannot both write; the loser reads the winner's secret.
    writeFileSync(path, randomBytes(32).toString('base64url') + '\n', { mode: 0o600, flag: 'wx' })
    return { secret: read(), source: 'generated', path }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
    return { secret: read(), source: 'file', path }
  }
}

/** An independent 256-bit key per purpose (HKDF-SHA256), so one use can never be replayed as another. */
export function deriveKey(secret: Buffer, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), `svc:${purpose}`, 32))
}
