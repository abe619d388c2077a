// Reads an OTLP/HTTP protobuf export (opentelemetry-proto's ExportTraceServiceRequest) into the same spans a JSON
// export gives, by the protobuf wire format: enough of it for the fields the tests read. Test support only.
import type { ReceivedSpan } from './tracing.testkit.js'

interface Field {
  no: number
  varint?: bigint
  bytes?: Buffer
}

/** The fields of one message, in order (repeated fields appear once per element). */
function fields(buf: Buffer): Field[] {
  const out: Field[] = []
  let i = 0
  const varint = (): bigint => {
    let value = 0n
    for (let shift = 0n; ; shift += 7n) {
      if (i >= buf.length) throw new Error('protobuf: a varint runs past the end')
      const b = buf[i++]
      value |= BigInt(b & 0x7f) << shift
      if ((b & 0x80) === 0) return value
    }
  }
  const take = (n: number): Buffer => {
    if (i + n > buf.length) throw new Error('protobuf: a field runs past the end')
    const b = buf.subarray(i, i + n)
    i += n
    return b
  }
  while (i < buf.length) {
    const key = Number(varint())
    const no = key >>> 3
    switch (key & 7) {
      case 0:
        out.push({ no, varint: varint() })
        break
      case 1:
        out.push({ no, bytes: take(8) })
        break
      case 2:
        out.push({ no, bytes: take(Number(varint())) })
        break
      case 5:
        out.push({ no, bytes: take(4) })
        break
      default:
        throw new Error(`protobuf: wire type ${key & 7} is not read here`)
    }
  }
  return out
}

const all = (buf: Buffer, no: number) => fields(buf).filter((f) => f.no === no)
const first = (buf: Buffer, no: number) => fields(buf).find((f) => f.no === no)

/** AnyValue: string 1, bool 2, int 3, double 4 (as the JSON export's stringValue, boolValue, intValue, doubleValue). */
function anyValue(buf: Buffer): unknown {
  for (const f of fields(buf)) {
    if (f.no === 1) return f.bytes!.toString('utf8')
    if (f.no === 2) return f.varint === 1n
    if (f.no === 3) return Number(BigInt.asIntN(64, f.varint!))
    if (f.no === 4) return f.bytes!.readDoubleLE(0)
  }
  return undefined
}

/** Span: trace_id 1, span_id 2, parent_span_id 4, name 5, kind 6, attributes 9 (KeyValue: key 1, value 2), status 15 (code 3). */
function span(buf: Buffer): ReceivedSpan {
  const hex = (no: number) => first(buf, no)?.bytes?.toString('hex') ?? ''
  const attributes: Record<string, unknown> = {}
  for (const kv of all(buf, 9)) attributes[first(kv.bytes!, 1)?.bytes?.toString('utf8') ?? ''] = anyValue(first(kv.bytes!, 2)?.bytes ?? Buffer.alloc(0))
  const status = first(buf, 15)?.bytes
  const code = status ? first(status, 3)?.varint : undefined
  return {
    traceId: hex(1),
    spanId: hex(2),
    parentSpanId: hex(4),
    name: first(buf, 5)?.bytes?.toString('utf8') ?? '',
    kind: Number(first(buf, 6)?.varint ?? 0n),
    attributes,
    status: code === undefined ? {} : { code: Number(code) },
  }
}

/** ExportTraceServiceRequest: resource_spans 1 → scope_spans 2 → spans 2. */
export function decodeTraceRequest(body: Buffer): ReceivedSpan[] {
  return all(body, 1).flatMap((rs) => all(rs.bytes!, 2).flatMap((ss) => all(ss.bytes!, 2).map((s) => span(s.bytes!))))
}
