#!/usr/bin/env node
// The package bin: runs the TypeScript CLI through tsx without a build step.
import { register } from 'tsx/esm/api'
import { fileURLToPath } from 'node:url'
import { dirname, join } from 'node:path'

register()
await import(join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'cli.ts'))
