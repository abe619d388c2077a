import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { setTimeout as sleep } from 'node:timers/promises'
import { createTestDatabase, ENGINE, type TestDatabase } from '../../../../test/helpers.js'
import { freePort, startServer, svc } from '../../../../test/spawn.js'
import { sendInto } from './email.testkit.js'

// The SMTP listener answers 250 only after the message's transaction committed, and a redelivery of a
// Message-ID writes nothing: a service process SIGKILLed while mail is arriving loses no acknowledged mail,
// and the senders' retries (of everything, acknowledged or not) make no second message.
describe(`email through the SMTP listener across a SIGKILL (${ENGINE})`, () => {
  let db: TestDatabase
  let blobs: string
  before(async () => {
    db = await createTestDatabase()
    blobs = mkdtempSync(join(tmpdir(), 'email-durability-'))
  })
  after(async () => {
    await db.drop()
    rmSync(blobs, { recursive: true, force: true })
  })

  it('every acknowledged mail is kept, and retries after the restart add none twice', async () => {
    const smtpPort = await freePort()
    const httpPort = await freePort()
    const env = {
      ...db.env,
      PORT: String(httpPort),
      PUBLIC_URL: `http://127.0.0.1:${httpPort}`,
      BLOB_DIR: blobs,
      SMTP_LISTEN_PORT: String(smtpPort),
      SMTP_LISTEN_HOST: '127.0.0.1',
      RATE_LIMIT_PER_MINUTE: '1000000',
    }
    const ws = JSON.parse(await svc(['workspaces', 'create', '--name', 'Mail', '--json'], env))
    const key = JSON.parse(await svc(['keys', 'create', '--scopes', 'admin', '--workspace', ws.id, '--json'], env)).key
    let server = await startServer(env)
    const call = async (method: string, path: string, body?: unknown) => {
      const r = await fetch(`${server.url}/v2${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      const text = await r.text()
      assert.ok(r.status < 300, `${method} ${path}: ${r.status} ${text}`)
      return JSON.parse(text)
    }
    const mail = (i: number) => ({
      from: `c${i}@example.net`,
      to: 'durable@acme.test',
      subject: `Case ${i}`,
      messageId: `<case-${i}@example.net>`,
      text: `Message ${i}`,
      attachments: [{ filename: `n${i}.txt`, content: `note ${i}` }],
    })
    try {
      await call('POST', '/channels', { type: 'email', name: 'Durable', email: { address: 'durable@acme.test' } })
      const acked = new Set<number>()
      const inFlight: Promise<void>[] = []
      for (let i = 0; i < 3; i++) if ((await sendInto(smtpPort, mail(i))).ok) acked.add(i)
      // The rest arrive together, and the process is killed while they are being received.
      const killed = server.exited
      for (let i = 3; i < 12; i++) {
        inFlight.push(
          sendInto(smtpPort, mail(i)).then((r) => {
            if (r.ok) acked.add(i)
            // The first of them acknowledged: the others are somewhere between RCPT and the commit.
            if (acked.size === 4 && server.child.exitCode === null) server.child.kill('SIGKILL')
          }),
        )
      }
      await Promise.race([killed, sleep(30_000)])
      if (server.child.exitCode === null) server.child.kill('SIGKILL')
      await Promise.all(inFlight)
      await server.exited
      assert.ok(acked.size >= 4, `acknowledged before the kill: ${[...acked].join(', ')}`)
      server = await startServer(env)
      // Every sender retries (the acknowledged ones too, as a nervous sender might).
      for (let i = 0; i < 12; i++) assert.equal((await sendInto(smtpPort, mail(i))).ok, true)
      const list = await call('GET', '/inbox/conversations?limit=100')
      const subjects = list.data.map((c: any) => c.subject).sort()
      assert.deepEqual(subjects, Array.from({ length: 12 }, (_, i) => `Case ${i}`).sort(), 'one conversation per mail, none twice')
      for (const c of list.data) {
        const msgs = (await call('GET', `/inbox/conversations/${c.id}/messages`)).data
        assert.equal(msgs.length, 1, `${c.subject}: ${msgs.length} messages`)
        assert.equal(msgs[0].attachments.length, 1)
        const file = await fetch(msgs[0].attachments[0].url)
        assert.equal(await file.text(), `note ${c.subject.split(' ')[1]}`)
      }
    } finally {
      await server.stop('SIGKILL')
    }
  })
})
