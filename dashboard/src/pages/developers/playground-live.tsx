import { useEffect, useState } from 'preact/hooks'
import type { components } from '../../api/schema.js'
import { Badge, CopyButton, Empty, Page, Time } from '../../ui/components.js'
import { useWorkspace } from '../../ui/workspace.js'
import { DEV } from './webhooks-shared.js'
import { t } from '../../i18n/index.js'

type Capture = components['schemas']['WebhookPlaygroundCapture']
type Signature = components['schemas']['WebhookSignatureCheck']

const TOKEN_KEY = 'svc.dashboard.playground-token'

/** 32 random bytes, base64url: the inbox's name and its only key. */
function newToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32))
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '')
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
    <Page title={t('developers.playgroundLive.webhookPlayground')}>
      <section class="panel" aria-labelledby="inbox-url">
        <h2 id="inbox-url">{t('developers.playgroundLive.yourInboxUrl')}</h2>
        <p>{t('developers.playgroundLive.anythingSentToThisUrl')}</p>
        <div class="secret-row">
          <code data-testid="playground-url">{url}</code>
          <CopyButton text={url} label={t('developers.playgroundLive.copyUrl')} />
        </div>
        <div class="form-actions">
          <a class="button primary" href={`${DEV}/webhooks?new=${encodeURIComponent(url)}`}>
            {t('developers.playgroundLive.createAnEndpointPointingHere')}
          </a>
          <button type="button" onClick={fresh}>
            {t('developers.playgroundLive.newInbox')}
          </button>
        </div>
      </section>
      <h2>{t('developers.playgroundLive.requests')}</h2>
      <p role="status" aria-live="polite" data-testid="playground-status">
        <Badge tone={link === 'live' ? 'good' : link === 'connecting' ? 'info' : 'warn'}>
          {link === 'live' ? t('developers.playgroundLive.live') : link === 'connecting' ? t('developers.playgroundLive.connecting') : t('developers.playgroundLive.reconnecting')}
        </Badge>{' '}
        {t('developers.playgroundLive.requestsReceived', { count: captures.length })}
      </p>
      {captures.length === 0 ? (
        <Empty title={t('developers.playgroundLive.waitingForTheFirstRequest')}>
          {t('developers.playgroundLive.sendOneEG')}{' '}
          <code>
            {t('developers.playgroundLive.curlXPostUrlD', { url })}
            {t('developers.playgroundLive.helloWorld')}'
          </code>
          {t('developers.playgroundLive.orPointAnEndpointHere')}
        </Empty>
      ) : (
        <ol class="captures" aria-label={t('developers.playgroundLive.requestsReceivedNewestFirst')} style={{ listStyle: 'none', padding: 0 }}>
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
        <dt>{t('developers.logsList.path')}</dt>
        <dd>
          <code>
            {c.path}
            {qs ? `?${qs}` : ''}
          </code>
        </dd>
        <dt>{t('developers.logsList.from')}</dt>
        <dd>{c.source_ip}</dd>
        <dt>{t('developers.deliveriesDetail.body')}</dt>
        <dd>
          {t('developers.playgroundLive.bodysizeBytes', { bodySize: c.body_size })}
          {c.content_type ? `, ${c.content_type}` : ''}
          {c.body_encoding === 'base64' ? t('developers.playgroundLive.binaryBase64') : ''}
          {c.body_truncated ? t('developers.playgroundLive.truncated') : ''}
        </dd>
      </dl>
      {c.body && (
        <pre style={{ whiteSpace: 'pre-wrap' }} aria-label={t('developers.playgroundLive.bodyOfTheMethodRequest', { method: c.method })} tabIndex={0}>
          <code>{pretty(c.body, c.body_encoding)}</code>
        </pre>
      )}
      <details>
        <summary>{t('developers.playgroundLive.headersLength', { length: Object.keys(c.headers).length })}</summary>
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
      <Badge tone={s.valid ? 'good' : 'bad'}>{s.valid ? t('developers.playgroundLive.signatureValid') : t('developers.playgroundLive.signatureValue', { value: s.result.replace(/_/g, ' ') })}</Badge>{' '}
      {t('developers.playgroundLive.detailDelivery', { detail: s.detail })} <a href={`${DEV}/deliveries/${s.delivery_id}`}>{s.delivery_id}</a>
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
