import { playgroundCaptureRoute } from './playground-capture.factory.js'

export const captureWebhookPlaygroundPut = playgroundCaptureRoute('PUT', 'captureWebhookPlaygroundPut')
