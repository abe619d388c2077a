/**
 * RIFF/WAVE reading and writing for call recordings: linear PCM only. Hand-written rather than through a
 * WAV library because the files we read are streamed ones (espeak-ng `--stdout` writes 0x7FFFF000-ish or
 * 0xFFFFFFFF as the RIFF and data sizes, since it cannot seek back): the reader ignores the RIFF size and
 * cuts the data chunk at the end of the buffer, which libraries that trust the header do not.
 */

/** Mono 16-bit linear PCM. */
export interface Pcm {
  sampleRate: number
  samples: Int16Array
}

export interface WavInfo {
  sampleRate: number
  channels: number
  bitsPerSample: number
  /** Rounded to the millisecond. */
  durationMs: number
}

interface ParsedWav {
  format: number
  sampleRate: number
  channels: number
  bitsPerSample: number
  blockAlign: number
  data: Buffer
}

const FORMAT_PCM = 1
const FORMAT_EXTENSIBLE = 0xfffe
const FORMAT_NAMES: Record<number, string> = { 3: 'IEEE float', 6: 'A-law', 7: 'µ-law', 0x55: 'MP3' }

export class WavError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'WavError'
  }
}

/** The chunks of a RIFF/WAVE buffer; the data chunk is cut at the end of the buffer when its size says more. */
export function parseWav(buf: Buffer): ParsedWav {
  if (buf.length < 12 || buf.toString('latin1', 0, 4) !== 'RIFF' || buf.toString('latin1', 8, 12) !== 'WAVE') {
    throw new WavError('not a RIFF/WAVE file')
  }
  let fmt: Omit<ParsedWav, 'data'> | null = null
  let offset = 12
  while (offset + 8 <= buf.length) {
    const id = buf.toString('latin1', offset, offset + 4)
    const declared = buf.readUInt32LE(offset + 4)
    const start = offset + 8
    const end = Math.min(start + declared, buf.length)
    if (id === 'fmt ') {
      if (end - start < 16) throw new WavError('WAV fmt chunk is too short')
      let format = buf.readUInt16LE(start)
      // WAVE_FORMAT_EXTENSIBLE carries the real format in the first two bytes of its sub-format GUID.
      if (format === FORMAT_EXTENSIBLE && end - start >= 26) format = buf.readUInt16LE(start + 24)
      fmt = {
        format,
        channels: buf.readUInt16LE(start + 2),
        sampleRate: buf.readUInt32LE(start + 4),
        blockAlign: buf.readUInt16LE(start + 12),
        bitsPerSample: buf.readUInt16LE(start + 14),
      }
    } else if (id === 'data') {
      if (!fmt) throw new WavError('WAV data chunk comes before its fmt chunk')
      if (fmt.channels < 1 || fmt.sampleRate < 1 || fmt.blockAlign < 1) throw new WavError('WAV fmt chunk is invalid')
      // A streamed file's data size is a placeholder: whole frames up to the end of the buffer are the data.
      const frames = Math.floor((end - start) / fmt.blockAlign)
      return { ...fmt, data: buf.subarray(start, start + frames * fmt.blockAlign) }
    }
    offset = start + declared + (declared % 2)
  }
  throw new WavError('WAV has no data chunk')
}

function requirePcm(wav: ParsedWav): void {
  if (wav.format !== FORMAT_PCM) {
    const name = FORMAT_NAMES[wav.format] ?? `format 0x${wav.format.toString(16)}`
    throw new WavError(`WAV is ${name}, not linear PCM`)
  }
  if (![8, 16, 24, 32].includes(wav.bitsPerSample) || wav.blockAlign !== (wav.channels * wav.bitsPerSample) / 8) {
    throw new WavError(`WAV has ${wav.bitsPerSample}-bit samples; 8, 16, 24 or 32-bit PCM is supported`)
  }
}

export function wavInfo(buf: Buffer): WavInfo {
  const wav = parseWav(buf)
  const frames = wav.data.length / wav.blockAlign
  return {
    sampleRate: wav.sampleRate,
    channels: wav.channels,
    bitsPerSample: wav.bitsPerSample,
    durationMs: Math.round((frames * 1000) / wav.sampleRate),
  }
}

/** The samples of a mono 16-bit PCM WAV (what espeak-ng writes). */
export function readPcm(buf: Buffer): Pcm {
  const wav = parseWav(buf)
  requirePcm(wav)
  if (wav.channels !== 1 || wav.bitsPerSample !== 16) throw new WavError(`expected mono 16-bit PCM, got ${wav.channels} channel(s) of ${wav.bitsPerSample}-bit`)
  const samples = new Int16Array(wav.data.length / 2)
  for (let i = 0; i < samples.length; i++) samples[i] = wav.data.readInt16LE(i * 2)
  return { sampleRate: wav.sampleRate, samples }
}

export function durationMs(pcm: Pcm): number {
  return Math.round((pcm.samples.length * 1000) / pcm.sampleRate)
}

/** A canonical 44-byte-header PCM WAV around `data` (interleaved frames, little-endian). */
function buildWav(data: Buffer, sampleRate: number, channels: number, bitsPerSample: number): Buffer {
  const blockAlign = (channels * bitsPerSample) / 8
  const header = Buffer.alloc(44)
  header.write('RIFF', 0, 'latin1')
  header.writeUInt32LE(36 + data.length, 4)
  header.write('WAVEfmt ', 8, 'latin1')
  header.writeUInt32LE(16, 16)
  header.writeUInt16LE(FORMAT_PCM, 20)
  header.writeUInt16LE(channels, 22)
  header.writeUInt32LE(sampleRate, 24)
  header.writeUInt32LE(sampleRate * blockAlign, 28)
  header.writeUInt16LE(blockAlign, 32)
  header.writeUInt16LE(bitsPerSample, 34)
  header.write('data', 36, 'latin1')
  header.writeUInt32LE(data.length, 40)
  return Buffer.concat([header, data])
}

export function pcmToWav(pcm: Pcm): Buffer {
  const data = Buffer.alloc(pcm.samples.length * 2)
  for (let i = 0; i < pcm.samples.length; i++) data.writeInt16LE(pcm.samples[i], i * 2)
  return buildWav(data, pcm.sampleRate, 1, 16)
}

/** espeak-ng's rate for every voice; the default when a recording has no parts to take it from. */
export const SPEECH_SAMPLE_RATE = 22050

/**
 * A mono 16-bit WAV of exactly `totalMs` (to the sample): each part placed at its `startMs`, silence
 * elsewhere. Parts that overlap are mixed (clipped at full scale: both sides talking at once); what runs
 * past `totalMs` is cut. All parts must share one sample rate (no resampling: espeak-ng gives one rate).
 */
export function assembleRecording(parts: { startMs: number; pcm: Pcm }[], totalMs: number, sampleRate?: number): Buffer {
  if (!Number.isFinite(totalMs) || totalMs < 0) throw new RangeError(`totalMs must be a non-negative number, got ${totalMs}`)
  const rate = sampleRate ?? parts[0]?.pcm.sampleRate ?? SPEECH_SAMPLE_RATE
  for (const p of parts) {
    if (p.pcm.sampleRate !== rate) throw new RangeError(`every part must be ${rate} Hz; one is ${p.pcm.sampleRate} Hz`)
    if (!Number.isFinite(p.startMs) || p.startMs < 0) throw new RangeError(`a part's startMs must be a non-negative number, got ${p.startMs}`)
  }
  const total = Math.round((totalMs * rate) / 1000)
  const mix = new Int32Array(total)
  for (const { startMs, pcm } of parts) {
    const at = Math.round((startMs * rate) / 1000)
    const n = Math.min(pcm.samples.length, total - at)
    for (let i = 0; i < n; i++) mix[at + i] += pcm.samples[i]
  }
  const data = Buffer.alloc(total * 2)
  for (let i = 0; i < total; i++) data.writeInt16LE(Math.max(-32768, Math.min(32767, mix[i])), i * 2)
  return buildWav(data, rate, 1, 16)
}

/**
 * One mono WAV per channel of a multi-channel PCM WAV, in channel order (Twilio dual-channel recordings:
 * [caller, our side]); the bit depth is kept. A mono input comes back as is.
 */
export function splitChannels(buf: Buffer): Buffer[] {
  const wav = parseWav(buf)
  requirePcm(wav)
  if (wav.channels === 1) return [buf]
  const bytes = wav.bitsPerSample / 8
  const frames = wav.data.length / wav.blockAlign
  const outs = Array.from({ length: wav.channels }, () => Buffer.alloc(frames * bytes))
  for (let f = 0; f < frames; f++) {
    const base = f * wav.blockAlign
    for (let c = 0; c < wav.channels; c++) {
      // Byte by byte: indexing is far cheaper than a Buffer.copy call per sample on an hour-long call.
      const out = outs[c]
      for (let b = 0; b < bytes; b++) out[f * bytes + b] = wav.data[base + c * bytes + b]
    }
  }
  return outs.map((data) => buildWav(data, wav.sampleRate, 1, wav.bitsPerSample))
}
