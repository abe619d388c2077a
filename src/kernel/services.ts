/**
 * The service container handed to route handlers. Each module adds its service by declaration merging
 * (`declare module '…/kernel/services.js' { interface Services { inbox: InboxService } }`).
 */
// eslint-disable-next-line @typescript-eslint/no-empty-interface
export interface Services {}
