import assert from 'node:assert/strict'
import { readdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { describe, it } from 'node:test'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { tsImport } from 'tsx/esm/api'
import { formatDate, formatNumber, locale, register, setLocale, t } from './src/i18n/index.js'
import type { Catalogue, Message } from './src/i18n/types.js'

// The dashboard's catalogues (dashboard/src/i18n/messages/<area>.ts): English and German complete, with the
// same placeholders, so no German reader meets an English sentence or a literal `{name}`.
const DIR = join(dirname(fileURLToPath(import.meta.url)), 'src/i18n/messages')
const files = readdirSync(DIR).filter((f) => f.endsWith('.ts'))
const catalogues = await Promise.all(files.map(async (f) => [f.replace(/\.ts$/, ''), ((await tsImport(pathToFileURL(join(DIR, f)).href, import.meta.url)) as { default: Catalogue }).default] as const))

const forms = (m: Message): Record<string, string> => (typeof m === 'string' ? { other: m } : (Object.fromEntries(Object.entries(m).filter(([, v]) => v !== undefined)) as Record<string, string>))
const placeholders = (m: Message): string[] => [...new Set(Object.values(forms(m)).flatMap((s) => [...s.matchAll(/\{(\w+)\}/g)].map((x) => x[1])))].sort()
// Keys of the shell's catalogue that are not `shell.…` (shared words used by every area).
const SHELL_PREFIXES = ['shell.', 'nav.', 'overview.', 'role.', 'notFound.', 'ui.', 'problem.', 'status.']

describe('dashboard message catalogues', { skip: process.env.TEST_DB === 'postgres' && 'no database involved: checked on SQLite' }, () => {
  it('has a catalogue per area', () => {
    assert.deepEqual(catalogues.map(([a]) => a).sort(), ['agents', 'bots', 'channels', 'compliance', 'developers', 'inbox', 'knowledge', 'leads', 'settings', 'shell', 'voice'])
  })

  for (const [area, c] of catalogues) {
    it(`${area}: German has exactly the English keys, with the same placeholders and plural forms`, () => {
      const en = Object.keys(c.en).sort()
      assert.deepEqual(Object.keys(c.de).sort(), en, `${area}: keys differ between en and de`)
      for (const key of en) {
        assert.ok(area === 'shell' ? SHELL_PREFIXES.some((p) => key.startsWith(p)) : key.startsWith(`${area}.`), `${area}: key ${key} is not under the area`)
        const e = c.en[key]
        const d = c.de[key]
        assert.deepEqual(placeholders(d), placeholders(e), `${area}: ${key} has other placeholders in German`)
        assert.equal(typeof d, typeof e, `${area}: ${key} is plural in one language only`)
        for (const [lang, m] of [
          ['en', e],
          ['de', d],
        ] as const) {
          for (const [form, text] of Object.entries(forms(m))) assert.ok(text.trim().length > 0, `${area}: ${key} (${lang}, ${form}) is empty`)
          if (typeof m !== 'string') assert.ok(m.other !== undefined && m.one !== undefined, `${area}: ${key} (${lang}) needs one and other`)
        }
      }
    })
  }

  it('no key is defined by two catalogues', () => {
    const seen = new Map<string, string>()
    for (const [area, c] of catalogues) {
      for (const key of Object.keys(c.en)) {
        assert.ok(!seen.has(key), `${key} is in ${seen.get(key)} and ${area}`)
        seen.set(key, area)
      }
    }
  })

  it('t() fills placeholders, chooses plural forms by locale, and formats numbers and dates for it', () => {
    register({
      en: { 'test.items': { one: '{count} item in {name}', other: '{count} items in {name}' } },
      de: { 'test.items': { one: '{count} Eintrag in {name}', other: '{count} Einträge in {name}' } },
    })
    const key = 'test.items' as Parameters<typeof t>[0]
    setLocale('en')
    assert.equal(locale(), 'en')
    assert.equal(t(key, { count: 1, name: 'Inbox' }), '1 item in Inbox')
    assert.equal(t(key, { count: 1234, name: 'Inbox' }), '1,234 items in Inbox')
    assert.equal(t('ui.error', { status: '422' }), 'Error 422')
    assert.equal(formatNumber(1234.5), '1,234.5')
    assert.match(formatDate('2026-03-05T14:07:00Z', { dateStyle: 'long', timeZone: 'UTC' }), /^March 5, 2026$/)
    setLocale('de')
    assert.equal(locale(), 'de')
    assert.equal(t(key, { count: 1, name: 'Posteingang' }), '1 Eintrag in Posteingang')
    assert.equal(t(key, { count: 1234, name: 'Posteingang' }), '1.234 Einträge in Posteingang')
    assert.equal(t('ui.loadMore'), 'Mehr laden')
    assert.equal(formatNumber(1234.5), '1.234,5')
    assert.equal(formatDate('2026-03-05T14:07:00Z', { dateStyle: 'long', timeZone: 'UTC' }), '5. März 2026')
    assert.equal(formatDate(null), '—')
    setLocale(null)
  })
})
