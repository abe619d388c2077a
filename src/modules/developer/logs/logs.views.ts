import type { ApiLogsTable } from '../../../kernel/db/kernel.tables.js'
import type { ApiLogT } from './logs.schemas.js'

export function apiLogView(r: ApiLogsTable): ApiLogT {
  return {
    id: r.id,
    object: 'api_log',
    request_id: r.request_id,
    method: r.method,
    path: r.path,
    operation_id: r.operation_id,
    status: Number(r.status),
    duration_ms: Number(r.duration_ms),
    key_id: r.key_id,
    oauth_app_id: r.oauth_app_id,
    ip: r.ip,
    user_agent: r.user_agent,
    error_code: r.error_code,
    created_at: r.created_at,
  }
}
