import { useEffect, useState } from 'preact/hooks'
import type { components } from '../../api/schema.js'
import { Badge, CopyButton, Empty, Page, Time } from '../../ui/components.js'
import { useWorkspace } from '../../ui/workspace.js'
import { DEV } from './webhooks-shared.js'

type Capture = components['schemas']['WebhookPlaygroundCapture']
type Signature = components['schemas']['WebhookSignatureCheck']

const TOKEN_KEY = 'svc.dashboard.playground-token'

/** 32 random bytes, base64url: the inbox's name and its only key. */
function newToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32))
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

/** This tab's token: kept in sessionStorage so a reload keeps the inbox. */
function storedToken(): string {
  const saved = sessionStorage.getItem(TOKEN_KEY)
  if (saved && /^[A-Za-z0-9_-]{22,64}$/.test(saved)) return saved
  const t = newToken()
  sessionStorage.setItem(TOKEN_KEY, t)
  return t
}

type Link = 'connecting' | 'live' | 'reconnecting'

/** /dashboard/developers/playground: a public test inbox, its requests shown live as they arrive (SSE). */
export default function WebhookPlayground() {
  const { api } = useWorkspace()
  const [token, setToken] = useState(storedToken)
  const [captures, setCaptures] = useState<Capture[]>([])
  const [link, setLink] = useState<Link>('connecting')
  const url = `${location.origin}${api.base}/webhooks/playground/${token}`

  useEffect(() => {
    setCaptures([])
    setLink('connecting')
    const ac = new AbortController()
    let last: string | undefined
    void (async () => {
      // The stream ends now and then (the server closes it after a while, the network drops): open it again after the last capture seen.
      while (!ac.signal.aborted) {
        try {
          await api.stream(
            `/webhooks/playground/${token}/stream${last ? `?after=${last}` : ''}`,
            (e) => {
              if (e.event === 'ready') setLink('live')
              if (e.event !== 'capture') return
              const c = JSON.parse(e.data) as Capture
              last = c.id
              setCaptures((xs) => (xs.some((x) => x.id === c.id) ? xs : [c, ...xs]))
            },
            ac.signal,
          )
        } catch {
          /* shown as reconnecting; tried again below */
        }
        if (ac.signal.aborted) return
        setLink('reconnecting')
        await new Promise((r) => setTimeout(r, 2000))
      }
    })()
    return () => ac.abort()
  }, [api, token])

  const fresh = () => {
    const t = newToken()
    sessionStorage.setItem(TOKEN_KEY, t)
    setToken(t)
  }

  return (
    <Page title="Webhook Playground">
      <section class="panel" aria-labelledby="inbox-url">
        <h2 id="inbox-url">Your inbox URL</h2>
        <p>
          Anything sent to this URL shows below as it arrives. No API key is needed: whoever knows the URL can read the inbox. Requests are kept 24 hours, at
          most 100.
        </p>
        <div class="secret-row">
          <code data-testid="playground-url">{url}</code>
          <CopyButton text={url} label="Copy URL" />
        </div>
        <div class="form-actions">
          <a class="button primary" href={`${DEV}/webhooks?new=${encodeURIComponent(url)}`}>
            Create an endpoint pointing here
          </a>
          <button type="button" onClick={fresh}>
            New inbox
          </button>
        </div>
      </section>
      <h2>Requests</h2>
      <p role="status" aria-live="polite" data-testid="playground-status">
        <Badge tone={link === 'live' ? 'good' : link === 'connecting' ? 'info' : 'warn'}>{link === 'live' ? 'Live' : link === 'connecting' ? 'Connecting…' : 'Reconnecting…'}</Badge>{' '}
        {captures.length === 1 ? '1 request received' : `${captures.length} requests received`}
      </p>
      {captures.length === 0 ? (
        <Empty title="Waiting for the first request">
          Send one, e.g. <code>curl -X POST {url} -d '{'{"hello":"world"}'}'</code>, or point an endpoint here and send a test event.
        </Empty>
      ) : (
        <ol class="captures" aria-label="Requests received, newest first" style={{ listStyle: 'none', padding: 0 }}>
          {captures.map((c) => (
            <li key={c.id}>
              <CaptureView capture={c} />
            </li>
          ))}
        </ol>
      )}
    </Page>
  )
}

function CaptureView({ capture: c }: { capture: Capture }) {
  const query = new URLSearchParams()
  for (const [k, v] of Object.entries(c.query)) for (const one of Array.isArray(v) ? v : [v]) query.append(k, one)
  const qs = query.toString()
  return (
    <article class="panel" aria-labelledby={`cap-${c.id}`}>
      <h3 id={`cap-${c.id}`} style={{ margin: '0 0 0.5rem', fontSize: '1rem' }}>
        <Badge tone="info">{c.method}</Badge> <Time iso={c.received_at} />
        {c.headers['svc-event-type'] && (
          <>
            {' '}
            <code>{c.headers['svc-event-type']}</code>
          </>
        )}
      </h3>
      {c.signature && <SignatureView s={c.signature} />}
      <dl class="facts">
        <dt>Path</dt>
        <dd>
          <code>
            {c.path}
            {qs ? `?${qs}` : ''}
          </code>
        </dd>
        <dt>From</dt>
        <dd>{c.source_ip}</dd>
        <dt>Body</dt>
        <dd>
          {c.body_size} bytes{c.content_type ? `, ${c.content_type}` : ''}
          {c.body_encoding === 'base64' ? ', binary (base64)' : ''}
          {c.body_truncated ? ', truncated' : ''}
        </dd>
      </dl>
      {c.body && (
        <pre style={{ whiteSpace: 'pre-wrap' }} aria-label={`Body of the ${c.method} request`} tabIndex={0}>
          <code>{pretty(c.body, c.body_encoding)}</code>
        </pre>
      )}
      <details>
        <summary>Headers ({Object.keys(c.headers).length})</summary>
        <pre style={{ whiteSpace: 'pre-wrap' }}>
          <code>
            {Object.entries(c.headers)
              .map(([k, v]) => `${k}: ${v}`)
              .join('\n')}
          </code>
        </pre>
      </details>
    </article>
  )
}

function SignatureView({ s }: { s: Signature }) {
  return (
    <p data-testid="signature-check">
      <Badge tone={s.valid ? 'good' : 'bad'}>{s.valid ? 'Signature valid' : `Signature: ${s.result.replace(/_/g, ' ')}`}</Badge> {s.detail} Delivery{' '}
      <a href={`${DEV}/deliveries/${s.delivery_id}`}>{s.delivery_id}</a>
      {s.timestamp_age_seconds !== null && `, signed ${s.timestamp_age_seconds} s before it arrived`}.
    </p>
  )
}

function pretty(body: string, encoding: string): string {
  if (encoding !== 'utf8') return body
  try {
    return JSON.stringify(JSON.parse(body), null, 2)
  } catch {
    return body
  }
}
