// The only SQL of the module, one repository per resource. Tenant data functions take the tenant first;
// another workspace's row is not found. The services read them all through this one name (`repo.*`).
export * from './webhook-endpoints.repository.js'
export * from './webhook-deliveries.repository.js'
export * from './webhook-attempts.repository.js'
export * from './webhook-outcomes.repository.js'
export * from './webhook-playground.repository.js'
export * from './webhooks-retention.repository.js'
