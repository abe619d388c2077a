// The client: `new Svc({ apiKey, baseUrl, maxRetries, timeout, apiVersion })`. Its namespaces and root
// operations are generated (generated/client.ts); the HTTP runtime is core.ts.

import * as errors from './errors.js'
import { SvcResources } from './generated/client.js'
import { API_VERSION, VERSION } from './generated/version.js'
import { Webhook } from './webhooks.js'

export class Svc extends SvcResources {
  /** The package version (= the API version it was generated from). */
  static readonly VERSION = VERSION
  /** The API version sent as `Svc-Api-Version` by default. */
  static readonly API_VERSION = API_VERSION
  /** Webhook verification without a client: `Svc.webhooks.constructEvent(payload, headers, secret)`. */
  static readonly webhooks = Webhook
  /** The error classes (`err instanceof Svc.errors.NotFoundError`). */
  static readonly errors = errors
}
