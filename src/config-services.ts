// The settings of outside services read from the checked environment values (config.ts calls these; neither reads
// process.env): the OpenTelemetry exporter and the S3-compatible blob store.
import { ConfigError } from './config-env.js'
import type { EnvValues } from './config-schema.js'
import type { S3Settings } from './kernel/blobs/s3-blob-store.js'
import type { TracingSettings } from './kernel/tracing/tracing.js'

/** OTEL_*: null when no endpoint is set (or OTEL_SDK_DISABLED); headers parsed as the spec writes them. */
export function tracingSettings(v: EnvValues): TracingSettings | null {
  const endpoint = v.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || (v.OTEL_EXPORTER_OTLP_ENDPOINT ? `${v.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, '')}/v1/traces` : null)
  if (!endpoint || v.OTEL_SDK_DISABLED) return null
  const problems: string[] = []
  const headers: Record<string, string> = {}
  const lists = { OTEL_EXPORTER_OTLP_HEADERS: v.OTEL_EXPORTER_OTLP_HEADERS, OTEL_EXPORTER_OTLP_TRACES_HEADERS: v.OTEL_EXPORTER_OTLP_TRACES_HEADERS }
  for (const [name, list] of Object.entries(lists)) {
    for (const pair of (list ?? '').split(',')) {
      if (!pair.trim()) continue
      const eq = pair.indexOf('=')
      const key = eq > 0 ? pair.slice(0, eq).trim() : ''
      let value: string | null = null
      try {
        value = eq > 0 ? decodeURIComponent(pair.slice(eq + 1).trim()) : null
      } catch {
        value = null
      }
      // The value is a credential: the message says where, never what.
      if (!/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(key) || value === null) problems.push(`${name}: expected key=value pairs separated by commas (values URL-encoded)`)
      else headers[key.toLowerCase()] = value
    }
  }
  if (!(v.OTEL_TRACES_SAMPLER_ARG <= 1)) problems.push(`OTEL_TRACES_SAMPLER_ARG: expected a ratio from 0 to 1, got ${v.OTEL_TRACES_SAMPLER_ARG}`)
  if (problems.length) throw new ConfigError([...new Set(problems)])
  return {
    // OTLP/HTTP with JSON or protobuf bodies, the two exporters this service ships; the TRACES_ variable wins.
    protocol: v.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL === 'http/json' || v.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL === 'http/protobuf' ? v.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL : v.OTEL_EXPORTER_OTLP_PROTOCOL,
    endpoint,
    headers,
    timeoutMs: v.OTEL_EXPORTER_OTLP_TRACES_TIMEOUT ?? v.OTEL_EXPORTER_OTLP_TIMEOUT,
    serviceName: v.OTEL_SERVICE_NAME,
    sampler: v.OTEL_TRACES_SAMPLER,
    samplerRatio: v.OTEL_TRACES_SAMPLER_ARG,
  }
}

/** BLOB_STORE=s3: the bucket is required, explicit credentials come as a pair. */
export function s3Settings(v: EnvValues): S3Settings {
  const problems: string[] = []
  if (!v.S3_BUCKET) problems.push('S3_BUCKET: required with BLOB_STORE=s3 (the bucket the service keeps its files in)')
  if (Boolean(v.S3_ACCESS_KEY_ID) !== Boolean(v.S3_SECRET_ACCESS_KEY)) problems.push("S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY: set both or neither (neither: the AWS SDK's default credentials)")
  if (problems.length) throw new ConfigError(problems)
  return {
    bucket: v.S3_BUCKET!,
    region: v.S3_REGION,
    endpoint: v.S3_ENDPOINT || null,
    forcePathStyle: v.S3_FORCE_PATH_STYLE,
    credentials: v.S3_ACCESS_KEY_ID ? { accessKeyId: v.S3_ACCESS_KEY_ID, secretAccessKey: v.S3_SECRET_ACCESS_KEY! } : null,
    prefix: v.S3_PREFIX ?? '',
  }
}
