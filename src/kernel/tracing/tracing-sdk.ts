import { W3CTraceContextPropagator } from '@opentelemetry/core'
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http'
import { OTLPTraceExporter as ProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto'
import { resourceFromAttributes } from '@opentelemetry/resources'
import { AlwaysOffSampler, AlwaysOnSampler, BatchSpanProcessor, NodeTracerProvider, ParentBasedSampler, TraceIdRatioBasedSampler, type Sampler } from '@opentelemetry/sdk-trace-node'
import type { Logger } from 'pino'
import type { TracingSdk, TracingSettings } from './tracing.js'

// Imported only by tracing.ts's startTracing, dynamically, when an endpoint is configured: a service without
// tracing never loads the SDK (test/tracing-off.test.ts checks it).

function samplerOf(s: TracingSettings): Sampler {
  const ratio = new TraceIdRatioBasedSampler(s.samplerRatio)
  switch (s.sampler) {
    case 'always_on':
      return new AlwaysOnSampler()
    case 'always_off':
      return new AlwaysOffSampler()
    case 'traceidratio':
      return ratio
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() })
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: ratio })
    default:
      return new ParentBasedSampler({ root: new AlwaysOnSampler() })
  }
}

/** Registers the process's tracer provider: W3C trace context, AsyncLocalStorage context, batched OTLP/HTTP export (JSON or protobuf). */
export function startSdk(settings: TracingSettings, log: Logger): TracingSdk {
  // Settings are passed explicitly (from the checked config), so the exporter's own OTEL_* fallbacks agree with them.
  const options = { url: settings.endpoint, headers: settings.headers, timeoutMillis: settings.timeoutMs }
  const exporter = settings.protocol === 'http/protobuf' ? new ProtobufExporter(options) : new JsonExporter(options)
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': settings.serviceName }),
    sampler: samplerOf(settings),
    spanProcessors: [new BatchSpanProcessor(exporter)],
  })
  provider.register({ propagator: new W3CTraceContextPropagator() })
  return {
    flush: () =>
      provider.forceFlush().catch((err: unknown) => {
        // An unreachable collector loses spans, never a request: say so once per flush.
        log.warn({ err: err instanceof Error ? err.message : String(err) }, 'could not export traces')
      }),
    shutdown: () => provider.shutdown(),
  }
}
