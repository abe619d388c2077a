// test-engines: sqlite (no database involved: one pass is enough; scripts/test.mjs leaves it out of PostgreSQL's)
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import { setTimeout as sleep } from 'node:timers/promises'
import { MAX_SPEECH_CHARS, detectSpeech, synthesize } from './speech.js'
import { assembleRecording, durationMs, splitChannels, wavInfo, readPcm, pcmToWav, WavError } from './wav.js'

const ESPEAK = 'espeak-ng'
const speech = await detectSpeech(ESPEAK)
const noSpeech = speech.available ? false : `espeak-ng is not installed here (${speech.reason}); apt-get install espeak-ng`
const hasSox = (() => {
  try {
    execFileSync('soxi', ['-h'], { stdio: 'ignore' })
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== 'ENOENT'
  }
})()
const noSox = hasSox ? false : 'sox is not installed here; apt-get install sox'

const dir = mkdtempSync(join(tmpdir(), 'speech-'))
after(() => rmSync(dir, { recursive: true, force: true }))

const soxiDuration = (file: string): number => Number(execFileSync('soxi', ['-D', file], { encoding: 'utf8' }).trim())

describe('detectSpeech', () => {
  it('reports the version of an installed program', { skip: noSpeech }, () => {
    assert.ok(speech.available && /^\d+\.\d+/.test(speech.version), JSON.stringify(speech))
  })

  it('reports a missing program with a reason, and caches per command', async () => {
    const missing = await detectSpeech('/nonexistent/espeak-ng')
    assert.equal(missing.available, false)
    assert.match(!missing.available ? missing.reason : '', /not installed/)
  })

  it('probes each command once: a second call answers from the cache without running it again', async () => {
    // A stand-in program that counts its runs and prints espeak-ng's version line.
    const runs = join(dir, 'probe-runs')
    const program = join(dir, 'counting-espeak')
    writeFileSync(program, `#!/bin/sh\necho run >> '${runs}'\necho 'eSpeak NG text-to-speech: 1.51  Data at: /usr/share'\n`)
    chmodSync(program, 0o755)
    assert.deepEqual(await detectSpeech(program), { available: true, version: '1.51' })
    assert.deepEqual(await detectSpeech(program), { available: true, version: '1.51' })
    assert.equal(readFileSync(runs, 'utf8'), 'run\n')
  })
})

describe('synthesize', { skip: noSpeech }, () => {
  it('speaks a line in each voice, each sounding different, all at 22,050 Hz', async () => {
    const text = 'Thanks for calling, how can I help you today?'
    const pcms = await Promise.all((['bot', 'caller', 'member'] as const).map((v) => synthesize(ESPEAK, text, v)))
    for (const pcm of pcms) {
      assert.equal(pcm.sampleRate, 22050)
      assert.ok(durationMs(pcm) > 1000 && durationMs(pcm) < 8000, `${durationMs(pcm)} ms`)
      assert.ok(
        pcm.samples.some((s) => Math.abs(s) > 1000),
        'audible',
      )
    }
    const [bot, caller, member] = pcms.map((p) => Buffer.from(p.samples.buffer))
    assert.ok(!bot.equals(caller) && !bot.equals(member) && !caller.equals(member))
    // The same line twice is the same audio: rendering a recording later measures what the call planned.
    assert.deepEqual(await synthesize(ESPEAK, text, 'bot'), pcms[0])
  })

  it('speaks a text that starts with - instead of reading it as an option', async () => {
    const pcm = await synthesize(ESPEAK, '--help -v xx --version', 'caller')
    // espeak-ng's help or version text on stdout would not parse as a WAV; this is audio.
    assert.ok(durationMs(pcm) > 1000, `${durationMs(pcm)} ms`)
    assert.ok(durationMs(await synthesize(ESPEAK, '-5 degrees', 'bot')) > 500)
  })

  it('returns silence-free nothing for blank text and cuts text past the limit', async () => {
    assert.equal((await synthesize(ESPEAK, '  \n ', 'bot')).samples.length, 0)
    const long = await synthesize(ESPEAK, 'a '.repeat(MAX_SPEECH_CHARS), 'bot', { timeoutMs: 30_000 })
    const longer = await synthesize(ESPEAK, 'a '.repeat(MAX_SPEECH_CHARS * 2), 'bot', { timeoutMs: 30_000 })
    assert.equal(longer.samples.length, long.samples.length)
  })
})

/** Killed processes whose parent is gone may stay zombies under an init that does not reap (containers). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch {
    return false
  }
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '')[0] !== 'Z'
  } catch {
    return true
  }
}

describe('synthesize with a program that misbehaves', () => {
  it('kills the program (its whole process group) when it takes too long', async () => {
    const pidFile = join(dir, 'pids')
    const script = join(dir, 'slow-speech.sh')
    // A wrapper that starts a child and never answers: both must be gone after the timeout.
    writeFileSync(script, `#!/bin/sh\nsleep 30 &\necho "$$ $!" > ${pidFile}\nwait\n`)
    chmodSync(script, 0o755)
    const started = Date.now()
    await assert.rejects(synthesize(script, 'hello', 'bot', { timeoutMs: 500 }), /took longer than 500 ms/)
    assert.ok(Date.now() - started < 5000)
    await sleep(100)
    for (const pid of readFileSync(pidFile, 'utf8').trim().split(' ').map(Number)) assert.ok(!running(pid), `process ${pid} still runs`)
  })

  it('fails clearly when the program is missing, fails or writes no audio', async () => {
    await assert.rejects(synthesize('/nonexistent/espeak-ng', 'hi', 'bot'), /could not be run/)
    const failing = join(dir, 'failing.sh')
    writeFileSync(failing, '#!/bin/sh\necho "no such voice" >&2\nexit 3\n')
    chmodSync(failing, 0o755)
    await assert.rejects(synthesize(failing, 'hi', 'bot'), /exited with 3: no such voice/)
    const silent = join(dir, 'silent.sh')
    writeFileSync(silent, '#!/bin/sh\ncat > /dev/null\n')
    chmodSync(silent, 0o755)
    await assert.rejects(synthesize(silent, 'hi', 'bot'), /produced no audio/)
  })
})

describe('WAV', () => {
  const tone = (ms: number, rate = 22050): { sampleRate: number; samples: Int16Array } => ({
    sampleRate: rate,
    samples: Int16Array.from({ length: Math.round((ms * rate) / 1000) }, (_, i) => Math.round(8000 * Math.sin(i / 10))),
  })

  it('assembles parts at their start with silence around them, exactly totalMs long', { skip: noSox }, () => {
    const a = tone(400)
    const b = tone(250)
    const c = tone(600)
    const wav = assembleRecording(
      [
        { startMs: 300, pcm: a },
        { startMs: 1200, pcm: b },
        { startMs: 2800, pcm: c },
      ],
      3137,
    )
    assert.deepEqual(wavInfo(wav), { sampleRate: 22050, channels: 1, bitsPerSample: 16, durationMs: 3137 })
    const file = join(dir, 'assembled.wav')
    writeFileSync(file, wav)
    assert.ok(Math.abs(soxiDuration(file) * 1000 - 3137) <= 1, `soxi says ${soxiDuration(file)} s`)
    const { samples } = readPcm(wav)
    const at = (ms: number) => Math.round((ms * 22050) / 1000)
    assert.ok(
      samples.subarray(0, at(300)).every((s) => s === 0),
      'silence before the first part',
    )
    assert.deepEqual(samples.subarray(at(300), at(300) + a.samples.length), a.samples)
    assert.ok(
      samples.subarray(at(700) + 1, at(1200)).every((s) => s === 0),
      'silence between parts',
    )
    assert.deepEqual(samples.subarray(at(1200), at(1200) + b.samples.length), b.samples)
    // The last part runs past the end and is cut.
    assert.deepEqual(samples.subarray(at(2800)), c.samples.subarray(0, samples.length - at(2800)))
  })

  it('assembles synthesized lines into a WAV soxi reads with the planned duration', { skip: noSpeech || noSox }, async () => {
    const bot = await synthesize(ESPEAK, 'Hello, this is the assistant.', 'bot')
    const caller = await synthesize(ESPEAK, 'Hi, I would like to book a table.', 'caller')
    const member = await synthesize(ESPEAK, 'This is Sam, I can help with that.', 'member')
    let t = 500
    const parts = [bot, caller, member].map((pcm) => {
      const part = { startMs: t, pcm }
      t += durationMs(pcm) + 700
      return part
    })
    const file = join(dir, 'call.wav')
    writeFileSync(file, assembleRecording(parts, t))
    assert.ok(Math.abs(soxiDuration(file) * 1000 - t) <= 1, `soxi says ${soxiDuration(file)} s, planned ${t} ms`)
  })

  it('mixes overlapping parts and insists on one sample rate', () => {
    const one = { sampleRate: 22050, samples: Int16Array.from([1000, 30000, -30000]) }
    const { samples } = readPcm(
      assembleRecording(
        [
          { startMs: 0, pcm: one },
          { startMs: 0, pcm: one },
        ],
        1,
      ),
    )
    assert.deepEqual([...samples.subarray(0, 3)], [2000, 32767, -32768])
    assert.throws(
      () =>
        assembleRecording(
          [
            { startMs: 0, pcm: tone(10) },
            { startMs: 0, pcm: tone(10, 16000) },
          ],
          100,
        ),
      /22050 Hz/,
    )
    assert.throws(() => assembleRecording([{ startMs: -1, pcm: tone(10) }], 100), /startMs/)
    assert.equal(wavInfo(assembleRecording([], 1000, 8000)).durationMs, 1000)
  })

  it('reads a streamed WAV whose header sizes are placeholders', () => {
    const wav = pcmToWav(tone(100))
    wav.writeUInt32LE(0xffffffff, 4)
    wav.writeUInt32LE(0xffffffff, 40)
    assert.equal(wavInfo(wav).durationMs, 100)
    assert.deepEqual(readPcm(wav).samples, tone(100).samples)
  })

  it('splits a stereo WAV into one mono WAV per channel', { skip: noSox }, () => {
    const left = join(dir, 'left.wav')
    const right = join(dir, 'right.wav')
    const stereo = join(dir, 'stereo.wav')
    writeFileSync(left, pcmToWav({ sampleRate: 8000, samples: Int16Array.from({ length: 8000 }, (_, i) => i % 100) }))
    writeFileSync(right, pcmToWav({ sampleRate: 8000, samples: Int16Array.from({ length: 8000 }, (_, i) => -(i % 77)) }))
    execFileSync('sox', ['-M', left, right, stereo])
    const input = readFileSync(stereo)
    assert.equal(wavInfo(input).channels, 2)
    const [caller, ours] = splitChannels(input)
    assert.deepEqual(wavInfo(caller), { sampleRate: 8000, channels: 1, bitsPerSample: 16, durationMs: 1000 })
    assert.deepEqual(readPcm(caller).samples, readPcm(readFileSync(left)).samples)
    assert.deepEqual(readPcm(ours).samples, readPcm(readFileSync(right)).samples)
    const mono = readFileSync(left)
    assert.deepEqual(splitChannels(mono), [mono])
  })

  it('refuses to split non-PCM or odd bit depths, with a clear error', { skip: noSox }, () => {
    const src = join(dir, 'src.wav')
    writeFileSync(src, pcmToWav(tone(100, 8000)))
    const ulaw = join(dir, 'ulaw.wav')
    execFileSync('sox', [src, '-e', 'u-law', '-c', '2', ulaw])
    assert.throws(
      () => splitChannels(readFileSync(ulaw)),
      (err: Error) => err instanceof WavError && /µ-law, not linear PCM/.test(err.message),
    )
    const float = join(dir, 'float.wav')
    execFileSync('sox', [src, '-e', 'floating-point', '-b', '32', '-c', '2', float])
    assert.throws(() => splitChannels(readFileSync(float)), /IEEE float, not linear PCM/)
    const odd = pcmToWav(tone(10, 8000))
    odd.writeUInt16LE(12, 34)
    assert.throws(() => splitChannels(odd), /12-bit samples/)
    assert.throws(() => splitChannels(Buffer.from('not a wav at all')), /not a RIFF\/WAVE file/)
  })
})
