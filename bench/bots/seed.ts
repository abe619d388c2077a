// The bots bench's data: a knowledge base of ~5,000 chunks seeded through the API from the knowledge
// evaluation's corpus, a bot answering from it (published), the load of POST /bots/{id}/messages, and the
// docs block of docs/bots.md.
import { readFileSync } from 'node:fs'
import { load, progress, type LoadResult } from '../lib.js'
import { loadCorpus, loadQuestions, putDocBlock, shuffled, startKnowledgeApp, upload, V, waitSettled, type CorpusDocument, type KnowledgeApp } from '../knowledge/app.js'

export const TARGET = Number(process.env.BENCH_BOTS_CHUNKS ?? 5000)
/** ~60 KB Markdown files: about 120 chunks each, so the base lands within one file of the target. */
const FILE_CHARS = 60_000

export interface SeededBot {
  app: KnowledgeApp
  botId: string
  kbId: string
  chunks: number
  documents: number
  seedSeconds: number
}

/**
 * Markdown files (one "## title" section per corpus document) cut from the corpus in shuffled passes: the
 * corpus makes ~2,000 chunks, so 5,000 need each document two or three times, in different files with
 * different neighbours (a help centre repeats itself too, and no two files are the same upload).
 */
function* files(corpus: CorpusDocument[]): Generator<{ title: string; text: string }> {
  let parts: string[] = []
  let size = 0
  let n = 0
  for (let pass = 1; ; pass++) {
    for (const d of shuffled(corpus, pass)) {
      const section = `## ${d.title}\n\n${d.text}\n`
      if (size + section.length > FILE_CHARS && parts.length) {
        n++
        yield { title: `Node.js API notes, part ${n}`, text: `# Node.js API notes, part ${n}\n\n${parts.join('\n')}` }
        parts = []
        size = 0
      }
      parts.push(section)
      size += section.length
    }
  }
}

/** The service on a fresh database, a base of ~TARGET chunks, and a bot on it, published. */
export async function seedBot(engine: 'sqlite' | 'postgres', entry: string, env: Record<string, string> = {}): Promise<SeededBot> {
  const app = await startKnowledgeApp(engine, { entry, env })
  try {
    const t0 = performance.now()
    const kb = await app.api('POST', `${V}/knowledge/bases`, { name: 'Node.js API', language: 'en' })
    const source = files(loadCorpus())
    // Rounds sized from the chunks per file so far, each short of the target, so the base ends within one file of it.
    let count = 0
    let chunks = 0
    while (chunks < TARGET) {
      const n = count === 0 ? 1 : Math.max(1, Math.floor((TARGET - chunks) / (chunks / count)))
      await upload(
        app.api,
        kb.id,
        Array.from({ length: n }, () => source.next().value!),
        4,
      )
      count += n
      const { docs } = await waitSettled(app.api, kb.id, count)
      const failed = docs.filter((d) => d.status === 'failed')
      if (failed.length) throw new Error(`${failed.length} files failed: ${failed[0].error}`)
      chunks = docs.reduce((sum, d) => sum + d.chunk_count, 0)
    }
    const base = await app.api('GET', `${V}/knowledge/bases/${kb.id}`)
    const bot = await app.api('POST', `${V}/bots`, {
      name: 'Node.js helper',
      instructions: 'You answer questions about the Node.js API from the documentation.',
      language: 'en',
      knowledge_base_ids: [kb.id],
    })
    await app.api('POST', `${V}/bots/${bot.id}/publish`, {})
    const seedSeconds = Math.round((performance.now() - t0) / 100) / 10
    progress(`bots ${engine}: ${base.chunk_count} chunks in ${count} files, seeded in ${seedSeconds} s; bot ${bot.id} published`)
    return { app, botId: bot.id, kbId: kb.id, chunks: base.chunk_count, documents: count, seedSeconds }
  } catch (err) {
    await app.close()
    throw err
  }
}

/** What the replies said, read from the response bodies. */
export interface ReplyTally {
  replies: number
  grounded: number
  handoff: number
  reasons: Record<string, number>
  cited: number
}

export interface BotLoad extends LoadResult {
  tally: ReplyTally
}

/**
 * POST /bots/{id}/messages at `connections` concurrent requests, the evaluation's questions in turn. `new`:
 * each request starts a conversation (a new contact each time); `continue`: each in-flight request has a
 * conversation of its own, kept across requests — a pool of one per connection, taken when the request is
 * built and given back when its response arrives (autocannon keeps the request's context until then), so
 * two requests never write to one conversation at once and the engine sees up to 10 earlier messages.
 */
export async function botLoad(s: SeededBot, mode: 'new' | 'continue', connections: number, duration: number): Promise<BotLoad> {
  const questions = loadQuestions().map((q) => q.question)
  const headers = { authorization: `Bearer ${s.app.key}`, 'content-type': 'application/json' }
  const all: string[] = []
  if (mode === 'continue') {
    for (let i = 0; i < connections; i++) {
      const r = await s.app.api('POST', `${V}/bots/${s.botId}/messages`, { content: 'Hello, I have a question about Node.js.', contact: { name: `Regular ${i}` } })
      all.push(r.conversation_id)
    }
  }
  const free = [...all]
  const tally: ReplyTally = { replies: 0, grounded: 0, handoff: 0, reasons: {}, cited: 0 }
  let n = 0
  const r = await load({
    url: `${s.app.url}${V}/bots/${s.botId}/messages`,
    method: 'POST',
    headers,
    connections,
    duration,
    requests: [
      {
        setupRequest: (req: any, context: any) => {
          const i = n++
          const body: Record<string, unknown> = { content: questions[i % questions.length] }
          if (mode === 'continue') {
            // A response lost to a timeout never gives its conversation back: share one rather than stall.
            context.conversation = free.shift() ?? all[i % all.length]
            body.conversation_id = context.conversation
          } else body.contact = { name: `Visitor ${i}`, email: `visitor${i}@example.com` }
          return { ...req, body: JSON.stringify(body) }
        },
        onResponse: (status: number, body: string, context: any) => {
          if (mode === 'continue' && context.conversation) free.push(context.conversation)
          if (status !== 201) return
          const reply = JSON.parse(body)
          tally.replies++
          if (reply.grounded) tally.grounded++
          if (reply.citations?.length) tally.cited++
          if (reply.handoff) {
            tally.handoff++
            const why = reply.handoff_reason ?? 'unknown'
            tally.reasons[why] = (tally.reasons[why] ?? 0) + 1
          }
        },
      },
    ],
  })
  return { ...r, tally }
}

/** utime + stime of a process, all threads, from /proc (clock ticks of 1/100 s on Linux), in seconds; 0 where unreadable. */
export function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
    return (Number(fields[11]) + Number(fields[12])) / 100
  } catch {
    return 0
  }
}

/** Replaces (or adds, at the end of its section) a `<!-- name:start/end -->` block of docs/bots.md. */
export const putBotsDocBlock = (name: string, content: string, section: string): void => putDocBlock(name, content, section, 'bots.md')
