import { playgroundCaptureRoute } from './playground-capture.factory.js'

export const captureWebhookPlaygroundDelete = playgroundCaptureRoute('DELETE', 'captureWebhookPlaygroundDelete')
