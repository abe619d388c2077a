import { defineErrors, type ErrorSpec } from '../../../kernel/errors.js'

/** The SDK generations' error codes (part of the developer module). */
export const SDK_GENERATIONS_ERRORS = defineErrors('developer', {
  // The download link of a generation still queued or running (Retry-After), or of one that failed.
  sdk_archive_not_ready: { status: 409, title: 'SDK archive not ready' },
  // The download link is older than 24 hours: create a new generation.
  sdk_download_expired: { status: 410, title: 'SDK download link expired' },
  // MAX_PENDING generations of this workspace are still queued or running.
  sdk_generations_busy: { status: 409, title: 'Too many SDK generations in progress' },
  // The server has no sdk/ folder (the clients' runtimes, packed into every archive) next to its code.
  sdk_generator_unavailable: { status: 503, title: 'SDK generator unavailable' },
})

declare module '../../../kernel/errors.js' {
  interface ErrorCodes extends Record<keyof typeof SDK_GENERATIONS_ERRORS, ErrorSpec> {}
}
