import { defineModule } from '../../kernel/module.js'
import { createVoiceCall } from './routes/create-voice-call.route.js'
import { createVoiceToken } from './routes/create-voice-token.route.js'
import { getVoiceCall } from './routes/get-voice-call.route.js'
import { getVoiceNumber } from './routes/get-voice-number.route.js'
import { hangupVoiceCall } from './routes/hangup-voice-call.route.js'
import { getVoiceRecording } from './routes/get-voice-recording.route.js'
import { getVoiceTranscript } from './routes/get-voice-transcript.route.js'
import { listVoiceCalls } from './routes/list-voice-calls.route.js'
import { listVoiceNumbers } from './routes/list-voice-numbers.route.js'
import { provisionVoiceNumber } from './routes/provision-voice-number.route.js'
import { releaseVoiceNumber } from './routes/release-voice-number.route.js'
import { transferVoiceCall } from './routes/transfer-voice-call.route.js'
import { updateVoiceNumber } from './routes/update-voice-number.route.js'
import { twilioCallbacks } from './carriers/twilio-callbacks.js'
import { TwilioCarriers } from './carriers/twilio-voice.js'
import { VOICE_ERRORS } from './voice.errors.js'
import { VOICE_EVENTS } from './voice.events.js'
import { voiceMigrations } from './voice.migrations.js'
import { voicePrivacy } from './voice.privacy.js'
import { VOICE_RETENTION } from './voice.retention.js'
import { VoiceService, voiceUsage } from './voice.service.js'

export const voiceModule = defineModule({
  name: 'voice',
  uses: ['workspaces', 'knowledge', 'inbox', 'bots', 'agents'],
  errors: VOICE_ERRORS,
  migrations: voiceMigrations,
  routes: [
    listVoiceNumbers,
    provisionVoiceNumber,
    getVoiceNumber,
    updateVoiceNumber,
    releaseVoiceNumber,
    listVoiceCalls,
    createVoiceCall,
    getVoiceCall,
    transferVoiceCall,
    hangupVoiceCall,
    getVoiceRecording,
    getVoiceTranscript,
    createVoiceToken,
  ],
  init(kernel, services) {
    kernel.events.declare(VOICE_EVENTS)
    const carriers = new TwilioCarriers(kernel, services)
    const voice = new VoiceService(kernel, services, carriers)
    carriers.attach(voice)
    kernel.jobs.register(voice.simStepJob)
    kernel.jobs.register(voice.renderJob)
    kernel.jobs.register(voice.transcribeJob)
    for (const job of carriers.jobs) kernel.jobs.register(job)
    services.voice = voice
  },
  health: (_kernel, services) => services.voice.health(),
  callbacks: async (app, kernel, services) => {
    await app.register(twilioCallbacks(kernel, services, services.voice.carriers as TwilioCarriers))
  },
  usage: voiceUsage,
  privacy: voicePrivacy,
  retention: VOICE_RETENTION,
})
