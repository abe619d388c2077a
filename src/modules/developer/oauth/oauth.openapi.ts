import { ALL_SCOPES } from '../../../kernel/auth/scopes.js'
import { describeScope } from './oauth-scopes.js'

/**
 * The OpenAPI security scheme of OAuth access tokens: the authorization code flow with its endpoints on
 * the live base URL, where the spec puts every operation (they are also at the root and under the sandbox
 * base URL; docs/oauth.md). Every authenticated operation lists it next to API keys.
 */
export function oauthSecurityScheme(publicUrl: string): { name: string; scheme: Record<string, unknown> } {
  const base = `${publicUrl.replace(/\/$/, '')}/v2/oauth`
  return {
    name: 'oauth2',
    scheme: {
      type: 'oauth2',
      description:
        'Access tokens (`svc_oat_…`) an OAuth app obtains with the authorization code flow and PKCE (S256), sent as ' +
        '`Authorization: Bearer`. The same endpoints answer at the root (`/oauth/…`) and under the sandbox base URL ' +
        `(sandbox apps); revocation: \`POST ${base}/revoke\` (RFC 7009); metadata: \`GET /.well-known/oauth-authorization-server\` (RFC 8414). See docs/oauth.md.`,
      flows: {
        authorizationCode: {
          authorizationUrl: `${base}/authorize`,
          tokenUrl: `${base}/token`,
          refreshUrl: `${base}/token`,
          scopes: Object.fromEntries(ALL_SCOPES.map((s) => [s, describeScope(s)])),
        },
      },
    },
  }
}
