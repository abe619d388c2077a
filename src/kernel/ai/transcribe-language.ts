// Whisper's verbose_json names the language in English words ("english", "german"); other
// OpenAI-compatible servers send a code ("en"). Callers get a code either way: ISO 639-1 where the
// language has one, else ISO 639-3, else null. The iso-639-3 table (~8,000 entries) loads on first use.

// Whisper's names that the ISO table spells differently.
const ALIASES: Record<string, string> = {
  greek: 'el',
  punjabi: 'pa',
  pashto: 'ps',
  myanmar: 'my',
  'haitian creole': 'ht',
  cantonese: 'yue',
  mandarin: 'zh',
  castilian: 'es',
  valencian: 'ca',
  flemish: 'nl',
  moldavian: 'ro',
  moldovan: 'ro',
  sinhalese: 'si',
}

let byName: Promise<Map<string, string>> | null = null

function table(): Promise<Map<string, string>> {
  byName ??= import('iso-639-3').then(({ iso6393 }) => {
    const map = new Map<string, string>()
    // Languages with a two-letter code first, so "Swahili (macrolanguage)" wins over the individual language.
    const ordered = [...iso6393].sort((a, b) => Number(!a.iso6391) - Number(!b.iso6391))
    for (const l of ordered) {
      const name = l.name.replace(/\s*\(.*\)$/, '').toLowerCase()
      if (!map.has(name)) map.set(name, l.iso6391 ?? l.iso6393)
    }
    return map
  })
  return byName
}

/** A language code for what the provider said, or null. */
export async function languageCode(said: unknown): Promise<string | null> {
  if (typeof said !== 'string') return null
  const s = said.trim()
  if (s === '') return null
  if (/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(s)) return s
  const name = s.toLowerCase()
  return ALIASES[name] ?? (await table()).get(name) ?? null
}
