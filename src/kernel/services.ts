/**
 * The service container handed to route handlers. Each module adds its service by declaration merging
 * (`declare module '…/kernel/services.js' { interface Services { inbox: InboxService } }`).
 */
export interface Services {}
