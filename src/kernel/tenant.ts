/** live = the /v2 base URL and svc_live_ keys; test = /sandbox/v2 and svc_test_ keys. */
export type Mode = 'live' | 'test'

/** Every repository function takes this first: rows of another workspace or mode are simply not found. */
export interface Tenant {
  workspaceId: string
  mode: Mode
}

export interface Principal extends Tenant {
  keyId: string
  scopes: string[]
}
