import assert from 'node:assert/strict'
import { parse } from '@cdktn/hcl2json'

/**
 * hcl2json gives HCL as Terraform's JSON syntax, where `${` and `%{` still start templates: it keeps them
 * escaped as `$${` and `%%{`. Undoing that gives the string Terraform itself would hold.
 */
export const literal = (v: unknown): unknown =>
  typeof v === 'string'
    ? v.replaceAll('$${', '${').replaceAll('%%{', '%{')
    : Array.isArray(v)
      ? v.map(literal)
      : v && typeof v === 'object'
        ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, literal(x)]))
        : v

/**
 * A `jsonencode({…})` attribute as hcl2json hands it back (an expression, `${jsonencode(…)}`): its argument
 * parsed again by the same HCL parser, so the values are checked as Terraform would read them.
 */
export async function jsonencoded(expr: string): Promise<unknown> {
  const inner = /^\$\{jsonencode\(([\s\S]*)\)\}$/.exec(expr)
  assert.ok(inner, `a jsonencode() expression: ${expr}`)
  return literal(((await parse('value.tf', `v = ${inner[1]}`)) as { v: unknown }).v)
}
