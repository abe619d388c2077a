import type { AiTurn } from '../../kernel/ai/ai.js'
import type { VoiceAnswerer } from './voice-answerer.js'
import type { CallLine, Speaker } from './voice.tables.js'

/** How long a line lasts when spoken: the synthesiser's audio, or an estimate without one. */
export type Measure = (text: string, speaker: Speaker) => Promise<number>

/** Silence before the first line after the answer, between lines, and after the last before hang-up. */
export const LEAD_IN_MS = 400
export const GAP_MS = 600
export const TAIL_MS = 700
/** ~150 words a minute: the estimate when no synthesiser is installed. */
export const estimateMs = (text: string) => Math.max(600, Math.round(text.trim().split(/\s+/).length * 400))

/** Lines laid end to end from `at`, each starting GAP_MS after the one before. */
class Timeline {
  readonly lines: CallLine[]
  constructor(
    private readonly measure: Measure,
    kept: CallLine[] = [],
    private at = LEAD_IN_MS,
  ) {
    this.lines = [...kept]
  }
  async say(speaker: Speaker, text: string): Promise<void> {
    const ms = await this.measure(text, speaker)
    this.lines.push({ speaker, text, start_ms: this.at, end_ms: this.at + ms, confidence: 1 })
    this.at += ms + GAP_MS
  }
}

/**
 * The conversation of an answered call on the simulated carrier: our greeting, then each of the caller's
 * scripted lines answered by the bot or agent (which sees the call so far), then our closing. Timings
 * come from the audio itself, so the recording and the transcript share one timeline.
 */
export async function planConversation(answerer: VoiceAnswerer, script: string[], measure: Measure): Promise<CallLine[]> {
  const t = new Timeline(measure)
  await t.say('bot', answerer.greeting)
  const transcript: AiTurn[] = [{ role: 'agent', text: answerer.greeting }]
  for (const [turn, line] of script.entries()) {
    await t.say('caller', line)
    transcript.push({ role: 'customer', text: line })
    if (!answerer.reply) continue
    const answer = await answerer.reply(transcript, turn)
    await t.say('bot', answer.text)
    transcript.push({ role: 'agent', text: answer.text })
    if (answer.handoff) break
  }
  if (answerer.closing) await t.say('bot', answerer.closing)
  return t.lines
}

/** When the call hangs up: a moment after its last line. */
export const endOf = (lines: CallLine[]) => (lines.length ? lines[lines.length - 1].end_ms : LEAD_IN_MS) + TAIL_MS

/**
 * The plan after a transfer `atMs` into the call: what was said (a line being spoken finishes first),
 * then our announcement (to the caller for a cold transfer, to the target first for a warm one), the
 * target taking over, and the caller's thanks.
 */
export async function planTransfer(lines: CallLine[], atMs: number, t: { mode: 'cold' | 'warm'; announcement: string | null; targetName: string }, measure: Measure): Promise<CallLine[]> {
  const kept = lines.filter((l) => l.start_ms < atMs)
  const from = Math.max(atMs, kept.length ? kept[kept.length - 1].end_ms + GAP_MS : LEAD_IN_MS)
  const tl = new Timeline(measure, kept, from)
  const announcement = t.announcement ?? (t.mode === 'warm' ? `I have a caller on the line for you; connecting you now.` : `Please hold while I transfer your call to ${t.targetName}.`)
  await tl.say('bot', announcement)
  await tl.say('member', `Hi, this is ${t.targetName}. I'm taking over your call.`)
  await tl.say('caller', 'Thank you.')
  return tl.lines
}
