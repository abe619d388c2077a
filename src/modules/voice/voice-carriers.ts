import type { Tx } from '../../kernel/db/database.js'
import type { Tenant } from '../../kernel/tenant.js'
import type { CallCarrierTransfer, VoiceCallsTable, VoiceNumbersTable } from './voice.tables.js'

/** What the services ask of a real carrier (the simulated one is the module's own jobs). */
export interface RealCarrier {
  /** Buy a number: the row's carrier columns (e164, carrier, carrier_sid, friendly name, capabilities). */
  provision(row: VoiceNumbersTable, country: string, areaCode: string | null): Promise<Partial<VoiceNumbersTable>>
  /** Rename a number the carrier owns for the workspace. */
  rename(number: VoiceNumbersTable, friendlyName: string): Promise<void>
  /** Give a number back to the carrier; one it no longer has counts as given back. */
  release(number: VoiceNumbersTable): Promise<void>
  /** In the call's creating transaction: queue its placement (the carrier is called after the commit). */
  queuePlacement(tx: Tx, tenant: Tenant, call: VoiceCallsTable): Promise<void>
  /** End a call at the carrier, ringing or in progress (its status callback follows). */
  end(call: VoiceCallsTable): Promise<void>
  /** Redirect a live call: the announcement, then the target (`+E164`, or `client:<identity>`). */
  transfer(call: VoiceCallsTable, transfer: CallCarrierTransfer, dial: string | null): Promise<void>
}

/**
 * Which carrier a tenant's calls go through: the sandbox always uses the simulated carrier; live mode
 * uses Twilio when the workspace has configured it (PATCH /workspaces/{id} `voice`), else the simulation.
 */
export interface VoiceCarriers {
  twilio(tenant: Tenant): Promise<RealCarrier | null>
}
