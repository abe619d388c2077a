import { OAuthError } from './oauth-errors.js'

/** What a client presented to identify itself at the token or revocation endpoint. */
export interface PresentedClient {
  clientId: string
  secret: string | null
  method: 'client_secret_basic' | 'client_secret_post' | 'none'
}

// RFC 6749 §2.3.1: the id and secret are form-urlencoded before they are joined and base64-encoded.
function formDecode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '))
  } catch {
    throw new OAuthError('invalid_client', 'The Basic credentials are not form-urlencoded.')
  }
}

/**
 * The client of a token or revocation request: HTTP Basic (client_secret_basic), client_id and
 * client_secret in the body (client_secret_post), or client_id alone (public clients, `none`). Using two
 * methods at once is invalid_request (RFC 6749 §2.3).
 */
export function presentedClient(authorization: string | undefined, form: URLSearchParams): PresentedClient {
  const basic = authorization ? /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization) : null
  if (authorization && !basic) throw new OAuthError('invalid_client', 'Authenticate the client with HTTP Basic (client_id:client_secret) or client_secret_post.')
  if (basic) {
    if (form.has('client_secret')) throw new OAuthError('invalid_request', 'Use one client authentication method: HTTP Basic or client_secret in the body, not both.')
    const decoded = Buffer.from(basic[1], 'base64').toString('utf8')
    const colon = decoded.indexOf(':')
    if (colon < 0) throw new OAuthError('invalid_client', 'The Basic credentials must be client_id:client_secret.')
    const clientId = formDecode(decoded.slice(0, colon))
    if (form.has('client_id') && form.get('client_id') !== clientId) throw new OAuthError('invalid_request', 'client_id in the body differs from the authenticated client.')
    return { clientId, secret: formDecode(decoded.slice(colon + 1)), method: 'client_secret_basic' }
  }
  const clientId = form.get('client_id')
  if (!clientId) throw new OAuthError('invalid_client', 'Identify the client: HTTP Basic, or client_id (and client_secret for confidential clients) in the body.')
  const secret = form.get('client_secret')
  return { clientId, secret, method: secret === null ? 'none' : 'client_secret_post' }
}
