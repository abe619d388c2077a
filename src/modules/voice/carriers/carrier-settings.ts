import { iso } from '../../../kernel/clock.js'
import { toJson } from '../../../kernel/db/database.js'
import { AppError } from '../../../kernel/errors.js'
import type { Kernel } from '../../../kernel/kernel.js'
import type { Services } from '../../../kernel/services.js'
import type { Tenant } from '../../../kernel/tenant.js'
import type { SealedSettings, SettingsSection, VoiceCarrierSettingsInputT } from '../../workspaces/workspaces.schemas.js'

/** The voice carrier as stored in the workspace's settings (the token sealed under the workspace id and mode). */
interface StoredVoice {
  provider: 'twilio'
  account_sid: string
  base_url: string
  auth_token_sealed: string | null
  updated_at: string
}

/** A tenant's Twilio account with its token opened. */
export interface VoiceCarrierConnection {
  provider: 'twilio'
  account_sid: string
  auth_token: string
  base_url: string
}

/**
 * The live carrier of a workspace: set with the workspace (PATCH /workspaces/{id} `voice`, kept in its
 * settings row), but what is stored, shown and opened is the voice module's (registered by its init).
 */
export class CarrierSettings implements SettingsSection<VoiceCarrierSettingsInputT> {
  readonly column = 'voice'
  private readonly stored: SealedSettings<StoredVoice>

  constructor(
    private readonly k: Kernel,
    services: Services,
  ) {
    this.stored = services.workspaces.sealedSettings<StoredVoice>('voice', ['provider', 'account_sid', 'base_url', 'auth_token_sealed', 'updated_at'])
  }

  /** The tenant's Twilio account, its token opened; null when none is set (the simulated carrier answers). */
  async connection(tenant: Tenant): Promise<VoiceCarrierConnection | null> {
    const voice = await this.stored.load(tenant)
    if (!voice?.auth_token_sealed) return null
    const token = this.stored.open(tenant, voice.auth_token_sealed)
    return { provider: voice.provider, account_sid: voice.account_sid, base_url: voice.base_url, auth_token: token }
  }

  check(tenant: Tenant): void {
    if (tenant.mode === 'test') {
      throw new AppError('validation_failed', 'The sandbox always uses the simulated carrier; set a voice carrier with a live key.', { errors: [{ pointer: '/body/voice', detail: 'live keys only' }] })
    }
  }

  urls(input: VoiceCarrierSettingsInputT): [string, string | undefined][] {
    return [['/body/voice/base_url', input.base_url]]
  }

  /** The auth token sealed, kept when left out for the same account. */
  store(tenant: Tenant, input: VoiceCarrierSettingsInputT, beforeJson: string | null): string {
    const before = this.stored.parse(beforeJson)
    const kept = before?.account_sid === input.account_sid ? before.auth_token_sealed : null
    const token = input.auth_token !== undefined ? this.stored.seal(tenant, input.auth_token) : kept
    if (!token) throw new AppError('validation_failed', 'A Twilio account needs its auth_token the first time.', { errors: [{ pointer: '/body/voice/auth_token', detail: 'required' }] })
    const stored: StoredVoice = {
      provider: 'twilio',
      account_sid: input.account_sid,
      base_url: (input.base_url ?? before?.base_url ?? 'https://api.twilio.com').replace(/\/$/, ''),
      auth_token_sealed: token,
      updated_at: iso(this.k.clock.now()),
    }
    return toJson(stored)
  }

  view(json: string) {
    return this.stored.view(json)
  }

  reseal(tenant: Tenant, json: string): string | null {
    return this.stored.reseal(tenant, json)
  }
}
