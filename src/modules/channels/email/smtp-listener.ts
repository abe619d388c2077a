import { readFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import type { SMTPServer, SMTPServerDataStream, SMTPServerSession } from 'smtp-server'
import type { Kernel } from '../../../kernel/kernel.js'
import type { EmailInboundService } from './email-inbound.service.js'
import { MimeRefused } from './mime.js'

/** Recipients of ours per message (the rest of a long list is refused one by one: the sender bounces them). */
const MAX_RECIPIENTS = 10

const smtpError = (code: number, text: string): Error => Object.assign(new Error(text), { responseCode: code })

/**
 * The service's own inbound SMTP listener (SMTP_LISTEN_PORT; off by default): an MX for the channels'
 * addresses. No AUTH (it is a receiving server, not a relay: a recipient that is not one of our channels'
 * addresses is refused at RCPT with 550). STARTTLS when a key and certificate are configured. The size
 * limit is announced (SIZE) and enforced while the message is read: beyond it nothing more is kept and
 * the message is refused with 552. The mail is acknowledged (250) only after its transaction committed:
 * a crash before that leaves the sender to retry, a redelivery of a committed message finds its receipt.
 */
export class SmtpListener {
  private server: SMTPServer | null = null

  constructor(
    private readonly k: Kernel,
    private readonly inbound: EmailInboundService,
  ) {}

  async start(): Promise<void> {
    const cfg = this.k.config.email
    if (cfg.listenPort === null) return
    // Loaded only when the listener is configured (SMTP_LISTEN_PORT): ~2 MB of heap otherwise unused (finding 26).
    const { SMTPServer } = await import('smtp-server')
    // Checked after the load: a second start() during it finds the first one's server.
    if (this.server) return
    const maxBytes = cfg.maxMessageBytes
    const tls = cfg.tls ? { key: readFileSync(cfg.tls.keyFile), cert: readFileSync(cfg.tls.certFile) } : null
    this.server = new SMTPServer({
      name: cfg.hostname,
      banner: 'inbound mail for support channels',
      size: maxBytes,
      authOptional: true,
      disabledCommands: tls ? ['AUTH'] : ['AUTH', 'STARTTLS'],
      ...(tls ?? {}),
      logger: false,
      maxClients: 200,
      socketTimeout: 60_000,
      closeTimeout: 5_000,
      onRcptTo: (address, session, cb) => {
        if (session.envelope.rcptTo.length >= MAX_RECIPIENTS) return cb(smtpError(452, `4.5.3 Too many recipients (at most ${MAX_RECIPIENTS} per message)`))
        this.inbound.route(address.address).then(
          (route) => cb(route ? null : smtpError(550, `5.1.1 <${address.address.slice(0, 254)}>: no such mailbox here`)),
          (err) => {
            this.k.log.error({ err: (err as Error).message }, 'smtp: recipient lookup failed')
            cb(smtpError(451, '4.3.0 Temporary failure, try again later'))
          },
        )
      },
      onData: (stream, session, cb) => {
        this.onData(stream, session, maxBytes).then(
          (msg) => cb(null, msg),
          (err: Error) => cb(err),
        )
      },
    })
    this.server.on('error', (err) => this.k.log.warn({ err: err.message }, 'smtp listener error'))
    const server = this.server
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(cfg.listenPort!, cfg.listenHost, () => {
        server.off('error', reject)
        resolve()
      })
    })
    this.k.log.info({ port: this.port() }, 'smtp listener ready')
  }

  /** The bound port (SMTP_LISTEN_PORT=0 picks one), or null when off. */
  port(): number | null {
    const a = this.server?.server.address() as AddressInfo | null | undefined
    return a ? a.port : null
  }

  async stop(): Promise<void> {
    const server = this.server
    this.server = null
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()))
  }

  private async onData(stream: SMTPServerDataStream, session: SMTPServerSession, maxBytes: number): Promise<string> {
    const chunks: Buffer[] = []
    let size = 0
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      size += chunk.length
      // Over the limit nothing more is kept; the rest is read only to answer the sender in order.
      if (size <= maxBytes) chunks.push(chunk)
    }
    if (stream.sizeExceeded || size > maxBytes) throw smtpError(552, `5.3.4 Message too big: the limit is ${maxBytes} bytes`)
    const raw = Buffer.concat(chunks)
    let mail
    try {
      mail = await this.inbound.parse(raw)
    } catch (err) {
      if (err instanceof MimeRefused) throw smtpError(554, `5.6.0 ${err.message}`)
      throw err
    }
    const ids: string[] = []
    try {
      for (const rcpt of session.envelope.rcptTo) {
        const route = await this.inbound.route(rcpt.address)
        if (!route) continue
        const r = await this.inbound.receive(route, mail)
        ids.push(r.messageId ?? 'duplicate')
      }
    } catch (err) {
      this.k.log.error({ err: (err as Error).message }, 'smtp: storing a message failed')
      throw smtpError(451, '4.3.0 Temporary failure while storing the message, try again later')
    }
    return `2.0.0 Accepted ${ids.join(' ')}`.trim()
  }
}
