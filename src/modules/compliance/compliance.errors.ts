import { defineErrors, type ErrorSpec } from '../../kernel/errors.js'

/** The compliance module's error codes (the kernel keeps only generic ones). */
export const COMPLIANCE_ERRORS = defineErrors('compliance', {
  // A DSAR export link past its expiry (24 h): ask for a new export.
  export_link_expired: { status: 410, title: 'Export link expired' },
  // The DSAR export is still being built, or failed.
  export_not_ready: { status: 409, title: 'Export not ready' },
  // exportDsarRequest on a rejected request.
  dsar_rejected: { status: 409, title: 'DSAR rejected' },
})

declare module '../../kernel/errors.js' {
  interface ErrorCodes extends Record<keyof typeof COMPLIANCE_ERRORS, ErrorSpec> {}
}
