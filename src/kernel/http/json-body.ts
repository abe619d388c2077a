import type { FastifyInstance } from 'fastify'
import { AppError } from '../errors.js'
import { utf8Text } from './request-body.js'

/**
 * How deeply objects and arrays may nest in a JSON request body. Our deepest schema (an agent's
 * `input_schema`) is far shallower; free-form fields (`input`, `metadata`) would otherwise carry any depth
 * into code that recurses over them (JSON.stringify overflowed its stack at ~5,000 levels: a 500).
 */
export const MAX_JSON_DEPTH = 64

/**
 * Keys that name an object's prototype machinery. An own `__proto__` key turns into a prototype when the
 * value is merged with Object.assign or a spread of a spread; `constructor`/`prototype` reach the same
 * place through `obj.constructor.prototype`. None is a field of ours, so a body holding one is refused
 * (422 with a pointer) wherever it sits, free-form fields included.
 */
export const FORBIDDEN_JSON_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype'])

const escapePointer = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1')

/**
 * Checks a parsed body without recursion (a body nested deeper than the stack is exactly what it looks
 * for): the first container beyond MAX_JSON_DEPTH, or the first forbidden key, is a 422 whose pointer
 * says where. Returns null when the body is fine.
 */
export function jsonBodyProblem(value: unknown, base = '/body'): AppError | null {
  const stack: [unknown, string, number][] = [[value, base, 1]]
  while (stack.length > 0) {
    const [node, pointer, depth] = stack.pop()!
    if (node === null || typeof node !== 'object') continue
    if (depth > MAX_JSON_DEPTH) {
      return new AppError('validation_failed', `${pointer} nests objects or arrays deeper than ${MAX_JSON_DEPTH} levels.`, {
        errors: [{ pointer, detail: `must not nest deeper than ${MAX_JSON_DEPTH} levels` }],
      })
    }
    if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) stack.push([node[i], `${pointer}/${i}`, depth + 1])
      continue
    }
    const keys = Object.keys(node)
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i]
      const here = `${pointer}/${escapePointer(key)}`
      if (FORBIDDEN_JSON_KEYS.has(key)) {
        return new AppError('validation_failed', `${here}: the key "${key}" is not allowed in a request body.`, {
          errors: [{ pointer: here, detail: `"${key}" is not an allowed key` }],
        })
      }
      stack.push([(node as Record<string, unknown>)[key], here, depth + 1])
    }
  }
  return null
}

/**
 * The JSON body parser of the API's base URLs (the other endpoints keep Fastify's):
 * - zero bytes with `Content-Type: application/json` is no body (as Stripe reads it), so operations whose
 *   body is optional accept it, and the others answer 422 for their missing fields;
 * - JSON.parse keeps `__proto__` as an own key (it never sets a prototype), which jsonBodyProblem then
 *   refuses with a pointer instead of a bare "malformed JSON";
 * - depth and forbidden keys are checked right here, before any hook, validator or handler recurses.
 */
export function registerJsonBodyParser(scope: FastifyInstance): void {
  scope.removeContentTypeParser('application/json')
  // Bytes, not a string: Node's decoding would turn invalid UTF-8 into U+FFFD silently (request-body.ts).
  scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => {
    const text = utf8Text(body as Buffer)
    if (text instanceof AppError) return done(text, undefined)
    if (text.length === 0) return done(null, undefined)
    let parsed: unknown
    try {
      parsed = JSON.parse(text)
    } catch {
      return done(new AppError('malformed_json', 'The request body is not valid JSON.'), undefined)
    }
    const problem = jsonBodyProblem(parsed)
    if (problem) return done(problem, undefined)
    done(null, parsed)
  })
}
