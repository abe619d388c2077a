import { fromJson, toJson } from '../../kernel/db/database.js'
import type { Kernel } from '../../kernel/kernel.js'
import type { BotConfig } from './bots.config.js'
import * as repo from './bots.repository.js'

/**
 * `svc secrets reseal` for bots: every attached tool's header values and signing secret, and the copies
 * frozen in versions, sealed under the current server secret (context: the tool id, as when attached).
 * A version's configuration stays the same configuration; only its encryption changes.
 */
export async function resealBotSecrets(k: Kernel): Promise<number> {
  const box = k.secrets
  const again = (sealed: string | null, id: string) => (sealed === null ? null : box.seal(box.open(sealed, id), id))
  const stale = (sealed: string | null) => sealed !== null && box.isStale(sealed)
  let count = 0
  let after: string | null = null
  for (;;) {
    const page = await repo.allToolSecrets(k.db, after, 500)
    if (page.length === 0) break
    for (const t of page) {
      if (!stale(t.headers_sealed) && !stale(t.signing_secret_sealed)) continue
      if (await repo.resealTool(k.db, t, { headers_sealed: again(t.headers_sealed, t.id), signing_secret_sealed: again(t.signing_secret_sealed, t.id) })) count++
    }
    after = page[page.length - 1].id
  }
  after = null
  for (;;) {
    const page = await repo.allVersionConfigs(k.db, after, 500)
    if (page.length === 0) break
    for (const v of page) {
      const config = fromJson<BotConfig | null>(v.config, null)
      if (!config || !config.tools.some((t) => stale(t.headers_sealed) || stale(t.signing_secret_sealed))) continue
      const tools = config.tools.map((t) => ({ ...t, headers_sealed: again(t.headers_sealed, t.id), signing_secret_sealed: again(t.signing_secret_sealed, t.id) }))
      if (await repo.resealVersion(k.db, v.id, v.config, toJson({ ...config, tools }))) count++
    }
    after = page[page.length - 1].id
  }
  return count
}
