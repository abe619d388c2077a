// Test support (not a test file itself): a real SMTP peer on 127.0.0.1 that plays the outbound relay
// (smtp-server, recording every message it accepts, parsed with mailparser), and a client sending mail
// into the service's own listener with nodemailer, as any mail server on the internet would.
import type { AddressInfo } from 'node:net'
import { simpleParser, type ParsedMail } from 'mailparser'
import nodemailer, { type SendMailOptions } from 'nodemailer'
import { SMTPServer } from 'smtp-server'

export interface SunkMail {
  envelope: { from: string; to: string[] }
  raw: string
  parsed: ParsedMail
}

/** An SMTP relay on 127.0.0.1 that accepts everything (or answers `failNext` codes at RCPT) and records it. */
export async function startSmtpSink(opts: { user?: string; password?: string } = {}) {
  const mails: SunkMail[] = []
  const scripted: number[] = []
  const auths: string[] = []
  const server = new SMTPServer({
    logger: false,
    disabledCommands: opts.user ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
    authOptional: !opts.user,
    allowInsecureAuth: true,
    onAuth(auth, _session, cb) {
      auths.push(auth.username ?? '')
      if (auth.username === opts.user && auth.password === opts.password) return cb(null, { user: auth.username })
      cb(Object.assign(new Error('535 5.7.8 Authentication credentials invalid'), { responseCode: 535 }))
    },
    onRcptTo(_address, _session, cb) {
      const code = scripted.shift()
      if (code) return cb(Object.assign(new Error(`${code} scripted refusal`), { responseCode: code }))
      cb()
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = []
      stream.on('data', (c: Buffer) => chunks.push(c))
      stream.on('end', () => {
        const raw = Buffer.concat(chunks)
        simpleParser(raw).then(
          (parsed) => {
            mails.push({ envelope: { from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '', to: session.envelope.rcptTo.map((r) => r.address) }, raw: raw.toString('utf8'), parsed })
            cb()
          },
          (err: Error) => cb(err),
        )
      })
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.server.address() as AddressInfo).port
  return {
    port,
    mails,
    auths,
    /** The next RCPT answers `code` (421/450: try later; 550: refused). */
    failNext(code: number) {
      scripted.push(code)
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
export type SmtpSink = Awaited<ReturnType<typeof startSmtpSink>>

/** Sends a message into our listener on `port` (nodemailer, no TLS: 127.0.0.1); resolves with the server's answer or its SMTP error. */
export async function sendInto(port: number, mail: SendMailOptions): Promise<{ ok: true; response: string } | { ok: false; responseCode: number | undefined; response: string }> {
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true, tls: { rejectUnauthorized: false } })
  try {
    const info = await transport.sendMail(mail)
    return { ok: true, response: info.response }
  } catch (err) {
    const e = err as { responseCode?: number; response?: string; message: string }
    return { ok: false, responseCode: e.responseCode, response: e.response ?? e.message }
  } finally {
    transport.close()
  }
}

/** Raw SMTP to our listener for what nodemailer will not send (malformed MIME): the data as given. */
export async function sendRaw(port: number, from: string, to: string, data: string) {
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true })
  try {
    const info = await transport.sendMail({ envelope: { from, to: [to] }, raw: data })
    return { ok: true as const, response: info.response }
  } catch (err) {
    const e = err as { responseCode?: number; response?: string; message: string }
    return { ok: false as const, responseCode: e.responseCode, response: e.response ?? e.message }
  } finally {
    transport.close()
  }
}

/** Postmark's inbound JSON (its inbound webhook's body), trimmed to what the service reads; `to` the channel's address. */
export const postmarkInbound = (from: string, messageId: string, attachments: { Name: string; Content: Buffer; ContentType: string }[], to = 'help@shop.test') => ({
  From: from,
  FromFull: { Email: from, Name: '', MailboxHash: '' },
  To: to,
  ToFull: [{ Email: to, Name: '', MailboxHash: '' }],
  Subject: 'Files',
  Date: 'Sun, 29 Nov 2026 09:00:00 +0000',
  TextBody: 'See attached.',
  HtmlBody: '',
  Headers: [{ Name: 'Message-ID', Value: `<${messageId}>` }],
  Attachments: attachments.map((a) => ({ Name: a.Name, Content: a.Content.toString('base64'), ContentType: a.ContentType })),
})
