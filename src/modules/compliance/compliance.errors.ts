import { defineErrors, type ErrorSpec } from '../../kernel/errors.js'

/** The compliance module's error codes (the kernel keeps only generic ones). */
export const COMPLIANCE_ERRORS = defineErrors('compliance', {
  // A DSAR export link past its expiry (24 h): ask for a new export.
  export_link_expired: { status: 410, title: 'Export link expired' },
  // A DSAR export link whose archive was deleted (an erasure about the person, or the dsar_exports retention).
  export_deleted: { status: 410, title: 'Export deleted' },
  // The DSAR export is still being built, or failed.
  export_not_ready: { status: 409, title: 'Export not ready' },
  // exportDsarRequest on a rejected request.
  dsar_rejected: { status: 409, title: 'DSAR rejected' },
})

declare module '../../kernel/errors.js' {
  interface ErrorCodes extends Record<keyof typeof COMPLIANCE_ERRORS, ErrorSpec> {}
}
