import { playgroundCaptureRoute } from './playground-capture.factory.js'

export const captureWebhookPlaygroundPost = playgroundCaptureRoute('POST', 'captureWebhookPlaygroundPost')
