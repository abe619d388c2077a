import { AppError } from '../../kernel/errors.js'
import type { Kernel } from '../../kernel/kernel.js'
import { checkOutboundUrl, OutboundUrlRefused } from '../../kernel/outbound/address-policy.js'

/**
 * The URLs a workspace's settings make the service call (the CRM's, the voice carrier's) are held to the
 * outbound address policy when saved, as webhook endpoints and tools are — 422 with a pointer — and again
 * at connect time by the CRM and carrier clients (a name may resolve elsewhere later).
 */
export async function checkSettingsUrls(k: Kernel, urls: [pointer: string, url: string | undefined][]): Promise<void> {
  const allowPrivateNetworks = k.config.outbound.allowPrivateNetworks
  for (const [pointer, raw] of urls) {
    if (raw === undefined) continue
    let refusal: string | null = null
    try {
      const url = new URL(raw)
      if (url.username || url.password) refusal = 'it must not contain credentials'
      else await checkOutboundUrl(raw, { allowPrivateNetworks, allowedSchemes: ['http', 'https'] })
    } catch (err) {
      if (!(err instanceof OutboundUrlRefused) && !(err instanceof TypeError)) throw err
      // Where private networks are allowed a name may resolve only later (offline installs, tests); the
      // connect-time check still applies the policy to what it resolves to then.
      if (err instanceof OutboundUrlRefused && err.reason === 'unresolvable' && allowPrivateNetworks) continue
      refusal = err instanceof OutboundUrlRefused ? err.message : 'it is not an absolute URL'
      if (err instanceof OutboundUrlRefused && err.verdict?.class === 'private')
        refusal += ' Loopback, private and link-local destinations are refused (operators may set OUTBOUND_ALLOW_PRIVATE_NETWORKS=true).'
    }
    if (refusal) throw new AppError('validation_failed', `The URL at ${pointer.slice('/body/'.length)} is refused: ${refusal}`, { errors: [{ pointer, detail: refusal }] })
  }
}
