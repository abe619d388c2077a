import { Type, type TArray, type TSchema, type TUnsafe } from 'typebox'

// Scope rules (docs/architecture.md#scopes):
//   admin grants everything; write grants read; read/write grant every granular …:read / …:write;
//   X:write grants X:read.
export const BROAD_SCOPES = ['read', 'write', 'admin'] as const

/**
 * A resource whose operations a module guards with granular scopes: `<resource>:read` and `<resource>:write`.
 * `memberWrites`: a member may write it by their role (the day-to-day work: conversations, messages, leads);
 * any other write changes how the workspace works and is admins' (kernel/auth/roles.ts).
 */
export interface ScopeResource {
  resource: string
  memberWrites?: boolean
}

/** What assembly reads of a module: the resources it declares, and the scopes its routes require. */
interface ScopedModule {
  name: string
  scopes?: readonly ScopeResource[]
  routes: readonly { operationId: string; scope: string; anyScope?: readonly string[] }[]
}

const RESOURCE = /^[a-z][a-z_]*$/
const replace = <T>(list: T[], items: readonly T[]) => void list.splice(0, list.length, ...items)

/**
 * The scopes of this build: the broad ones, then `<resource>:read` and `<resource>:write` for each resource a
 * module declares (`scopes` in its definition), in MODULES order. Assembled from the modules as soon as MODULES
 * is (src/modules/index.ts), and again by createKernel for the modules it is given; before that it holds the
 * broad scopes only.
 *
 * Route schemas are static objects, yet compiled (validation) and published (OpenAPI) only once an app is built,
 * after assembly: so the lists and schemas that name every scope are made here and completed in place (arrays
 * that TypeBox's copies of a schema share).
 */
class ScopeCatalogue {
  /** Every scope, broad first. The same array for the life of the process (completed in place). */
  readonly all: string[] = [...BROAD_SCOPES]
  readonly granular: string[] = []
  /** `read` and every granular `…:read`: what admits a credential to a route any reader may open (the event stream). */
  readonly anyRead: string[] = ['read']
  /** The `…:write` scopes members hold by their role (ScopeResource.memberWrites). */
  readonly memberWrites: string[] = []
  private readonly enums: { enum: string[] }[] = []
  private readonly unions: { anyOf: TSchema[] }[] = []

  /**
   * Takes the modules' declarations. Two modules declaring one resource, or a route requiring a scope nobody
   * declares (which no granular key could ever call), stop the start.
   */
  assemble(modules: readonly ScopedModule[]): void {
    const owner = new Map<string, string>()
    const memberWrites: string[] = []
    for (const m of modules) {
      for (const { resource, memberWrites: members } of m.scopes ?? []) {
        if (!RESOURCE.test(resource)) throw new Error(`module ${m.name}: scope resource '${resource}' must be lower-case letters and _`)
        const other = owner.get(resource)
        if (other !== undefined && other !== m.name) throw new Error(`scope resource '${resource}' is declared by both ${other} and ${m.name}`)
        owner.set(resource, m.name)
        if (members) memberWrites.push(`${resource}:write`)
      }
    }
    const granular = [...owner.keys()].flatMap((r) => [`${r}:read`, `${r}:write`])
    replace(this.granular, granular)
    replace(this.all, [...BROAD_SCOPES, ...granular])
    replace(this.anyRead, ['read', ...granular.filter((s) => s.endsWith(':read'))])
    replace(this.memberWrites, memberWrites)
    for (const e of this.enums) replace(e.enum, this.all)
    for (const u of this.unions)
      replace(
        u.anyOf,
        this.all.map((s) => Type.Literal(s)),
      )
    const undeclared = modules.flatMap((m) => m.routes.flatMap((r) => [r.scope, ...(r.anyScope ?? [])].filter((s) => !this.isKnown(s)).map((s) => `${r.operationId} (${m.name}) requires ${s}`)))
    if (undeclared.length) throw new Error(`scopes no module declares: ${undeclared.join('; ')}`)
  }

  isKnown(s: string): boolean {
    return this.all.includes(s)
  }

  /** A scope name as a string enum (`{ type: 'string', enum: [...] }`), the enum completed at assembly. */
  enumSchema(options: { title?: string; description?: string }): TUnsafe<string> {
    const schema = Type.Unsafe<string>({ type: 'string', enum: [...this.all], ...options })
    this.enums.push(schema as unknown as { enum: string[] })
    return schema
  }

  /** A scope name as a union of literals, completed at assembly. */
  unionSchema(options: { title?: string; description?: string }): TUnsafe<string> {
    const schema = Type.Union(
      this.all.map((s) => Type.Literal(s)),
      options,
    )
    this.unions.push(schema as unknown as { anyOf: TSchema[] })
    return schema as unknown as TUnsafe<string>
  }

  /**
   * An array of scope names at most as long as the catalogue (with uniqueItems: no scope twice). The bound is a
   * getter, not a value: TypeBox wraps a schema (Optional) by copying its properties, and a copied getter still
   * reads the completed catalogue.
   */
  listSchema<T extends TSchema>(item: T, options: { minItems?: number; uniqueItems?: boolean; description?: string }): TArray<T> {
    const { minItems, ...rest } = options
    const schema = Type.Array(item, { ...(minItems === undefined ? {} : { minItems }), maxItems: this.all.length, ...rest })
    Object.defineProperty(schema, 'maxItems', { get: () => this.all.length, enumerable: true, configurable: true })
    return schema
  }
}

export const SCOPES = new ScopeCatalogue()

/** Every scope of this build (the catalogue's live list: complete once the kernel is created). */
export const ALL_SCOPES: readonly string[] = SCOPES.all

export function isKnownScope(s: string): boolean {
  return SCOPES.isKnown(s)
}

export function scopeGrants(held: string, required: string): boolean {
  if (held === required || held === 'admin') return true
  if (required === 'admin') return false
  const [reqRes, reqAct] = required.includes(':') ? required.split(':') : [null, required]
  const [heldRes, heldAct] = held.includes(':') ? held.split(':') : [null, held]
  // write ⊇ read, at the same breadth.
  const actionOk = heldAct === reqAct || (heldAct === 'write' && reqAct === 'read')
  if (!actionOk) return false
  if (heldRes === null) return true // broad read/write covers any resource
  return heldRes === reqRes
}

export function hasScope(held: readonly string[], required: string): boolean {
  return held.some((h) => scopeGrants(h, required))
}
