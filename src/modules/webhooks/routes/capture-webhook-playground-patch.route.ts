import { playgroundCaptureRoute } from './playground-capture.factory.js'

export const captureWebhookPlaygroundPatch = playgroundCaptureRoute('PATCH', 'captureWebhookPlaygroundPatch')
