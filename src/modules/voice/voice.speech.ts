import { estimateMs, type Measure } from './call-plan.js'
import { detectSpeech, synthesize, type Pcm } from './speech/speech.js'
import { durationMs } from './speech/wav.js'
import type { Speaker } from './voice.tables.js'

/**
 * The speech synthesiser as the voice module sees it: optional. Without it calls still run (line lengths
 * estimated) and recordings report `unavailable` with the reason.
 */
export class VoiceSpeech {
  constructor(private readonly command: string) {}

  async status(): Promise<{ available: boolean; reason: string | null; version: string | null }> {
    const s = await detectSpeech(this.command)
    return s.available ? { available: true, reason: null, version: s.version } : { available: false, reason: s.reason, version: null }
  }

  readonly measure: Measure = async (text, speaker) => ((await this.status()).available ? durationMs(await this.speak(text, speaker)) : estimateMs(text))

  speak(text: string, speaker: Speaker): Promise<Pcm> {
    return synthesize(this.command, text, speaker)
  }
}
