import type { OperationLoc } from '../snapshots/openapi-walk.js'
import type { TerraformResource } from './terraform-attributes.js'
import type { TerraformResourceDef } from './terraform-catalog.js'

/**
 * How the Mastercard/restapi provider (a generic REST provider on the public Terraform registry) reaches one
 * resource type: its `restapi_object` settings, read from the served document's operations so they follow
 * the routes. The provider's defaults are `POST path`, `GET|PUT|DELETE path/{id}`; the provider block of the
 * export sets `update_method = "PATCH"`, so only what differs from that is written per object.
 */
export interface RestMapping {
  /** `restapi_object` with import; `data` (a data source found in the list) when the API has no GET by id, which the provider's import needs. */
  kind: 'resource' | 'data'
  /** The collection path, relative to the provider's `uri` (`/bots`). */
  path: string
  /** For a singleton: the last segment of its path, set as `object_id` (the provider reads `path/{object_id}`). */
  objectId?: string
  /** Only where they differ from the defaults. */
  settings: Record<string, string>
  /** The API cannot delete it: `prevent_destroy` stops Terraform from trying. */
  noDelete: boolean
  /** The API cannot change it: every attribute forces a new object. */
  noUpdate: boolean
}

/** The provider's import id: `/<path from the uri>/<object id>` (it reads `GET path/id`). */
export const importIdOf = (m: RestMapping, id: string) => (m.objectId ? `${m.path}/${m.objectId}` : `${m.path}/${id}`)

/** `{client_id}` and the like become the provider's one placeholder, `{id}`. */
const withIdPlaceholder = (p: string) => p.replace(/\{[^}/]+\}$/, '{id}')
const parent = (p: string) => p.slice(0, p.lastIndexOf('/')) || '/'

export function restMapping(resource: TerraformResource, def: TerraformResourceDef | undefined, ops: Map<string, OperationLoc>): RestMapping | null {
  const create = ops.get(resource.operations.create)
  const list = ops.get(resource.operations.list)
  if (!create || !list) return null
  const read = resource.operations.read ? ops.get(resource.operations.read) : undefined
  const update = resource.operations.update ? ops.get(resource.operations.update) : undefined
  const del = resource.operations.delete ? ops.get(resource.operations.delete) : undefined
  const noDelete = !del
  const noUpdate = !update
  if (def?.singleton && read) {
    // One object at a fixed path (`/compliance/retention`): path is its parent, object_id its last segment.
    const settings: Record<string, string> = { create_path: create.path }
    if (create.method !== 'POST') settings.create_method = create.method
    if (update && update.path !== read.path) settings.update_path = update.path
    if (update && update.method !== 'PATCH') settings.update_method = update.method
    return { kind: 'resource', path: parent(read.path), objectId: read.path.slice(read.path.lastIndexOf('/') + 1), settings, noDelete, noUpdate }
  }
  if (!read || !/\/\{[^}/]+\}$/.test(read.path)) return { kind: 'data', path: list.path, settings: {}, noDelete, noUpdate }
  const path = parent(read.path)
  const settings: Record<string, string> = {}
  if (create.path !== path) settings.create_path = create.path
  if (create.method !== 'POST') settings.create_method = create.method
  if (update && withIdPlaceholder(update.path) !== `${path}/{id}`) settings.update_path = withIdPlaceholder(update.path)
  if (update && update.method !== 'PATCH') settings.update_method = update.method
  if (del && withIdPlaceholder(del.path) !== `${path}/{id}`) settings.destroy_path = withIdPlaceholder(del.path)
  if (del && del.method !== 'DELETE') settings.destroy_method = del.method
  return { kind: 'resource', path, settings, noDelete, noUpdate }
}
