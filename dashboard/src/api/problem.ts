import { t } from '../i18n/index.js'

/** A problem+json answer (RFC 9457) as the API sends it: what every error state shows. */
export interface ProblemBody {
  type?: string
  title?: string
  status?: number
  detail?: string
  code?: string
  request_id?: string
  errors?: { pointer?: string; detail?: string }[]
  /** Extension members (RFC 9457 §3.2), e.g. a 409's `existing_id`. */
  [extension: string]: unknown
}

export class ApiProblem extends Error {
  readonly status: number
  readonly code: string
  readonly detail: string
  readonly requestId: string | null
  readonly errors: { pointer?: string; detail?: string }[]
  /** The problem body as sent, extension members included; null when it was not JSON. */
  readonly body: ProblemBody | null
  constructor(status: number, body: ProblemBody | null, requestId: string | null) {
    super(body?.detail ?? body?.title ?? `HTTP ${status}`)
    this.status = status
    this.code = body?.code ?? (status === 0 ? 'network_error' : 'http_error')
    this.detail = body?.detail ?? body?.title ?? (status === 0 ? t('problem.unreachable') : t('problem.answered', { status: String(status) }))
    this.requestId = body?.request_id ?? requestId
    this.errors = body?.errors ?? []
    this.body = body
  }

  /** An extension member that is a string (`existing_id`, …), if the problem has it. */
  extension(name: string): string | undefined {
    const v = this.body?.[name]
    return typeof v === 'string' ? v : undefined
  }
}

/** The problem of a failed fetch Response (whatever its body), or of a network failure. */
export async function problemOf(res: Response | null, err?: unknown): Promise<ApiProblem> {
  if (!res) return new ApiProblem(0, { detail: err instanceof Error ? t('problem.unreachableBecause', { reason: err.message }) : undefined }, null)
  let body: ProblemBody | null = null
  try {
    body = (await res.clone().json()) as ProblemBody
  } catch {
    body = null
  }
  return new ApiProblem(res.status, body, res.headers.get('X-Request-ID'))
}
