// How a test process is started: the node:test command line and the environment, shared by the test runner
// (scripts/test.mjs) and the mutation run (scripts/mutation.mjs), so a mutant runs its test exactly as the suite does.
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'

/**
 * The environment of one engine's test processes. `testBuild`: the folder of this run's service bundle that the
 * tests starting real processes start (test/spawn.ts), or '' for the sources through tsx.
 */
export function testEnv(engine, testBuild = '') {
  return {
    ...process.env,
    TEST_DB: engine,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent',
    TEST_PG_URL: process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
    TEST_REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
    SVC_TEST_BUILD: testBuild,
  }
}

/**
 * `node --test`'s arguments for `files`: bundles (no TypeScript loader) or sources (through tsx), the spec
 * reporter on stdout and, with `timingsFile`, each file's time there (scripts/test-timings-reporter.mjs).
 */
export function nodeTestArgs(files, { bundled, timingsFile = null, concurrency = process.env.TEST_CONCURRENCY ?? 2, timeoutMs = 180000 }) {
  return [
    // Bundles need no TypeScript loader (tsx reading a bundle costs more than loading it); a test that imports
    // TypeScript at run time by a computed path does so through tsx's tsImport.
    ...(bundled ? ['--enable-source-maps'] : ['--import', 'tsx']),
    '--test',
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    // The timings file is named in the reporter's URL: it writes there itself, at once (see the reporter).
    ...(timingsFile
      ? [`--test-reporter=${pathToFileURL(resolve('scripts/test-timings-reporter.mjs')).href}?out=${encodeURIComponent(resolve(timingsFile))}`, '--test-reporter-destination=stdout']
      : []),
    `--test-concurrency=${concurrency}`,
    // A test that hangs fails after 3 minutes, and a file whose handles stay open still ends. node --test gives its
    // files the same limit as their tests (and its own flag to them): a group of browser test files gets more.
    `--test-timeout=${timeoutMs}`,
    '--test-force-exit',
    ...files,
  ]
}
