import assert from 'node:assert/strict'
import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Fixture } from '../src/kernel/module.js'

// Found here rather than declared by the modules: a module definition is production code, and a fixture must
// not be reachable from it (test/test-support-graph.test.ts).
const MODULES_DIR = new URL('../src/modules/', import.meta.url).pathname

function fixtureFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) fixtureFiles(path, out)
    else if (name.endsWith('.fixtures.ts')) out.push(path)
  }
  return out
}

async function load(): Promise<Record<string, Fixture>> {
  const all: Record<string, Fixture> = {}
  for (const file of fixtureFiles(MODULES_DIR)) {
    const { FIXTURES } = (await import(pathToFileURL(file).href)) as { FIXTURES?: Record<string, Fixture> }
    assert.ok(FIXTURES, `${file} exports no FIXTURES`)
    for (const [operationId, fixture] of Object.entries(FIXTURES)) {
      assert.ok(!(operationId in all), `two fixtures for ${operationId} (the second in ${file})`)
      all[operationId] = fixture
    }
  }
  return all
}

/** Every module's fixtures (`src/modules/**\/<name>.fixtures.ts`, each exporting FIXTURES): no central table to edit. */
export const FIXTURES: Record<string, Fixture> = await load()
