import pino, { type DestinationStream, type Logger } from 'pino'
import type { Config } from './config.js'

/** `destination`: stdout unless given (a test reads the stream to check what reaches it). */
export function createLogger(config: Config, destination?: DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level: config.logLevel,
    // Credentials never reach the log, whatever a call site passes.
    redact: { paths: ['req.headers.authorization', 'headers.authorization', 'key', 'secret', '*.key', '*.secret'], censor: '[redacted]' },
  }
  return destination ? pino(options, destination) : pino(options)
}
