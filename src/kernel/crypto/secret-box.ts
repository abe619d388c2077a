import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto'
import { deriveKey } from './server-secret.js'

const PREFIX = 'enc:v1:'
const PURPOSE = 'secrets-at-rest'

interface Key {
  id: string
  key: Buffer
}

function keyFrom(secret: Buffer): Key {
  const key = deriveKey(secret, PURPOSE)
  // The id names the key without revealing it: a value says which secret sealed it.
  return { id: createHash('sha256').update(key).digest('hex').slice(0, 8), key }
}

/**
 * Credentials the service must use later (webhook signing secrets, CRM tokens, carrier credentials) are
 * stored sealed: AES-256-GCM under a key derived from the server secret, as
 * `enc:v1:<key id>:<iv>:<tag>:<ciphertext>` (base64url). Values sealed under a previous server secret
 * still open while that secret is listed in SERVER_SECRET_PREVIOUS; `svc secrets reseal` rewrites them
 * under the current one. Secrets only ever compared (API keys, OAuth client secrets) are hashed instead.
 */
export class SecretBox {
  private readonly current: Key
  private readonly keys: Map<string, Key>

  constructor(secret: Buffer, previous: Buffer[] = []) {
    this.current = keyFrom(secret)
    this.keys = new Map([this.current, ...previous.map(keyFrom)].map((k) => [k.id, k]))
  }

  seal(plain: string, context = ''): string {
    const iv = randomBytes(12)
    const cipher = createCipheriv('aes-256-gcm', this.current.key, iv)
    // The context (e.g. the row id) is authenticated: a sealed value copied onto another row does not open.
    cipher.setAAD(Buffer.from(context))
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()])
    return `${PREFIX}${this.current.id}:${iv.toString('base64url')}:${cipher.getAuthTag().toString('base64url')}:${body.toString('base64url')}`
  }

  open(sealed: string, context = ''): string {
    if (!SecretBox.isSealed(sealed)) throw new Error('not a sealed value')
    const [id, iv, tag, body] = sealed.slice(PREFIX.length).split(':')
    const k = this.keys.get(id)
    if (!k) throw new Error(`sealed under an unknown server secret (key id ${id}); add it to SERVER_SECRET_PREVIOUS`)
    const decipher = createDecipheriv('aes-256-gcm', k.key, Buffer.from(iv, 'base64url'))
    decipher.setAAD(Buffer.from(context))
    decipher.setAuthTag(Buffer.from(tag, 'base64url'))
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8')
  }

  /** Sealed under an older secret (or not sealed at all): `reseal` should rewrite it. */
  isStale(value: string): boolean {
    return !SecretBox.isSealed(value) || !value.startsWith(`${PREFIX}${this.current.id}:`)
  }

  static isSealed(value: string): boolean {
    return value.startsWith(PREFIX)
  }
}
