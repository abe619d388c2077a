import pino, { type Logger } from 'pino'
import type { Config } from './config.js'

export function createLogger(config: Config): Logger {
  return pino({
    level: config.logLevel,
    // Credentials never reach the log, whatever a call site passes.
    redact: { paths: ['req.headers.authorization', 'headers.authorization', 'key', 'secret', '*.key', '*.secret'], censor: '[redacted]' },
  })
}
