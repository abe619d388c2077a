import { execFile, spawn } from 'node:child_process'
import { SPEECH_SAMPLE_RATE, readPcm, type Pcm } from './wav.js'

export type { Pcm } from './wav.js'

/**
 * Speech synthesis through espeak-ng run as a separate program (Debian package `espeak-ng`). The text
 * is user input, so it goes in on stdin (`--stdin`): never through a shell, never as an argument that
 * could read as an option (`-v`, `--help`) or carry a NUL.
 */

export type SpeechVoice = 'bot' | 'caller' | 'member'

export type SpeechStatus = { available: true; version: string } | { available: false; reason: string }

export interface SynthesizeOptions {
  /** The program is killed (its whole process group) past this; default 10 s. */
  timeoutMs?: number
}

/** Longer lines are cut: a phone line that long is a mistake, and it bounds the time and the audio size. */
export const MAX_SPEECH_CHARS = 2000
const DEFAULT_TIMEOUT_MS = 10_000
// 2,000 characters are about three minutes of 22,050 Hz 16-bit audio (~8 MB); past this something is wrong.
const MAX_OUTPUT_BYTES = 32 * 1024 * 1024

// Each party sounds different so a listener can tell them apart; all of them are 22,050 Hz in espeak-ng.
const VOICE_ARGS: Record<SpeechVoice, string[]> = {
  bot: ['-v', 'en-us', '-p', '50', '-s', '165'],
  caller: ['-v', 'en-us+f3', '-p', '60', '-s', '160'],
  member: ['-v', 'en-gb', '-p', '35', '-s', '170'],
}

export class SpeechError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'SpeechError'
  }
}

const detected = new Map<string, Promise<SpeechStatus>>()

/** Whether `command` runs, once per command per process (installing it needs a restart to be seen). */
export function detectSpeech(command = 'espeak-ng'): Promise<SpeechStatus> {
  let status = detected.get(command)
  if (!status) {
    status = probe(command)
    detected.set(command, status)
  }
  return status
}

function probe(command: string): Promise<SpeechStatus> {
  return new Promise((resolve) => {
    execFile(command, ['--version'], { timeout: 5000, killSignal: 'SIGKILL' }, (err, stdout) => {
      if (err) {
        const code = (err as NodeJS.ErrnoException).code
        const reason =
          code === 'ENOENT'
            ? `${command} is not installed (Debian/Ubuntu: apt-get install espeak-ng)`
            : code === 'EACCES'
              ? `${command} is not executable`
              : `${command} --version failed: ${err.message.split('\n')[0]}`
        resolve({ available: false, reason })
        return
      }
      const line = stdout.split('\n')[0].trim()
      resolve({ available: true, version: /\d+\.\d+[\w.-]*/.exec(line)?.[0] ?? line })
    })
  })
}

/** `text` spoken with `voice`'s sound, as mono 16-bit PCM. Blank text is zero samples (nothing is run). */
export async function synthesize(command: string, text: string, voice: SpeechVoice, options: SynthesizeOptions = {}): Promise<Pcm> {
  const line = cut(text.replace(/\0/g, ''))
  if (!line.trim()) return { sampleRate: SPEECH_SAMPLE_RATE, samples: new Int16Array(0) }
  const wav = await run(command, ['--stdout', '--stdin', ...VOICE_ARGS[voice]], line, options.timeoutMs ?? DEFAULT_TIMEOUT_MS)
  return readPcm(wav)
}

function cut(text: string): string {
  if (text.length <= MAX_SPEECH_CHARS) return text
  const head = text.slice(0, MAX_SPEECH_CHARS)
  // Never leave half a surrogate pair at the end.
  return /[\uD800-\uDBFF]$/.test(head) ? head.slice(0, -1) : head
}

function run(command: string, args: string[], input: string, timeoutMs: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // Its own process group, so a timeout also ends whatever a wrapper script started.
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'], detached: true })
    const out: Buffer[] = []
    let outBytes = 0
    let stderr = ''
    let failure: SpeechError | null = null
    const kill = (why: string) => {
      failure ??= new SpeechError(why)
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL')
      } catch {
        child.kill('SIGKILL')
      }
    }
    const timer = setTimeout(() => kill(`${command} took longer than ${timeoutMs} ms and was stopped`), timeoutMs)
    child.stdout.on('data', (chunk: Buffer) => {
      outBytes += chunk.length
      if (outBytes > MAX_OUTPUT_BYTES) kill(`${command} wrote more than ${MAX_OUTPUT_BYTES} bytes`)
      else out.push(chunk)
    })
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 2000) stderr += chunk.toString('utf8')
    })
    // A program that exits without reading its stdin makes the write fail with EPIPE; its exit tells why.
    child.stdin.on('error', () => {})
    child.on('error', (err) => {
      clearTimeout(timer)
      reject(new SpeechError(`${command} could not be run: ${err.message}`))
    })
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      const detail = stderr.trim().split('\n')[0]
      if (failure) return reject(failure)
      if (code !== 0) return reject(new SpeechError(`${command} exited with ${signal ?? code}${detail ? `: ${detail}` : ''}`))
      const wav = Buffer.concat(out)
      // espeak-ng exits 0 with no output for some failures (an unknown voice): stderr says which.
      if (wav.length === 0) return reject(new SpeechError(`${command} produced no audio${detail ? `: ${detail}` : ''}`))
      resolve(wav)
    })
    child.stdin.end(input, 'utf8')
  })
}
