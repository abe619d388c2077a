// Writes the README's configuration table from the one declaration of the environment (src/config-schema.ts):
// `npm run config:table`. test/config-schema.test.ts fails while the README's table differs from it.
import { readFileSync, writeFileSync } from 'node:fs'
import { configTable } from '../src/config-env.js'

export const START = '<!-- config-table:start (generated from src/config-schema.ts by `npm run config:table`; do not edit) -->'
export const END = '<!-- config-table:end -->'

/** The README with its table between the markers replaced by the generated one. */
export function withTable(readme: string): string {
  const from = readme.indexOf(START)
  const to = readme.indexOf(END)
  if (from < 0 || to < from) throw new Error(`README.md: the configuration table's markers are missing (${START} … ${END})`)
  return `${readme.slice(0, from + START.length)}\n${configTable()}\n${readme.slice(to)}`
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const path = new URL('../README.md', import.meta.url)
  const before = readFileSync(path, 'utf8')
  const after = withTable(before)
  if (after !== before) writeFileSync(path, after)
  process.stdout.write(after === before ? 'README.md: configuration table up to date\n' : 'README.md: configuration table written\n')
}
