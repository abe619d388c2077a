import { randomBytes } from 'node:crypto'
import { decodeJwt, jwtVerify, SignJWT, type JWTPayload } from 'jose'
import type { Kernel } from '../../kernel/kernel.js'
import type { Principal, Tenant } from '../../kernel/tenant.js'
import { MAX_TOKEN_TTL_SECONDS, type CreateVoiceTokenBodyT, type VoiceTokenT } from './voice.schemas.js'
import { numberOr404 } from './voice.shared.js'
import { referenced } from '../../kernel/references.js'

/** Twilio's content type for its access tokens; ours are laid out the same way. */
const CTY = 'twilio-fpa;v=1'

export interface VoiceTokenClaims extends JWTPayload {
  grants: VoiceTokenT['grants'] & { identity: string }
  mode: Tenant['mode']
}

/**
 * Client tokens for browser and mobile voice clients: a JWT laid out like a Twilio access token
 * (`cty: twilio-fpa;v=1`, `jti` = issuer-iat, `grants.identity`, `grants.voice.incoming/outgoing`), HS256
 * with a key of the server secret per workspace and mode, so a token of one workspace never verifies as
 * another's. Made and checked with jose; nothing is stored (a token is valid until it expires).
 */
export class VoiceTokensService {
  constructor(private readonly k: Kernel) {}

  private key(tenant: Tenant): Uint8Array {
    return this.k.deriveKey(`voice-token:${tenant.workspaceId}:${tenant.mode}`)
  }

  private issuer = (tenant: Tenant) => `${tenant.workspaceId}:${tenant.mode}`
  private audience = () => `${this.k.config.publicUrl}/voice`

  async create(principal: Principal, body: CreateVoiceTokenBodyT): Promise<VoiceTokenT> {
    const ttl = body.ttl_seconds ?? 3600
    const outgoing = body.outgoing
    const number = outgoing ? await referenced('/body/outgoing/number_id', () => numberOr404(this.k.db, principal, outgoing.number_id)) : null
    const iat = Math.floor(this.k.clock.now().getTime() / 1000)
    const grants: VoiceTokenClaims['grants'] = {
      identity: body.identity,
      voice: { incoming: { allow: body.incoming ?? false }, outgoing: number ? { number_id: number.id, phone_number: number.e164 } : null },
    }
    const token = await new SignJWT({ grants, mode: principal.mode })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT', cty: CTY })
      .setJti(`${this.issuer(principal)}-${iat}-${randomBytes(6).toString('hex')}`)
      .setIssuer(this.issuer(principal))
      .setSubject(principal.workspaceId)
      .setAudience(this.audience())
      .setIssuedAt(iat)
      .setNotBefore(iat)
      .setExpirationTime(iat + ttl)
      .sign(this.key(principal))
    const { identity: _i, ...rest } = grants
    const view: VoiceTokenT = { object: 'voice_token', token, identity: body.identity, expires_at: new Date((iat + ttl) * 1000).toISOString(), grants: rest }
    // Nothing is stored, but an idempotent retry must get this same token back: the key commits with it.
    return this.k.transaction(principal, async () => view)
  }

  /** The claims of a token this service made for its tenant (the issuer names it), or a jose error. */
  async verify(token: string): Promise<VoiceTokenClaims> {
    const [workspaceId, mode] = String(decodeJwt(token).iss ?? '').split(':')
    const tenant: Tenant = { workspaceId, mode: mode === 'test' ? 'test' : 'live' }
    const { payload } = await jwtVerify<VoiceTokenClaims>(token, this.key(tenant), {
      algorithms: ['HS256'],
      issuer: this.issuer(tenant),
      audience: this.audience(),
      currentDate: this.k.clock.now(),
      maxTokenAge: MAX_TOKEN_TTL_SECONDS,
    })
    return payload
  }
}
