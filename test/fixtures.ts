import type { TestApp } from './helpers.js'

/**
 * For the shared security test: per operationId with path parameters, create a resource in workspace A
 * (live) and return the path parameters that address it — or `{ params, body }` when the operation needs a
 * valid body to get past validation. Workspace B must then get 404 for it.
 */
export type Fixture = (h: TestApp) => Promise<Record<string, string> | { params: Record<string, string>; body?: unknown }>

const workspaces: Record<string, Fixture> = {
  getWorkspace: async (h) => ({ id: h.a.workspaceId }),
  updateWorkspace: async (h) => ({ params: { id: h.a.workspaceId }, body: { name: 'Renamed' } }),
  listWorkspaceMembers: async (h) => ({ id: h.a.workspaceId }),
  inviteWorkspaceMember: async (h) => ({ params: { id: h.a.workspaceId }, body: { email: 'new@example.com' } }),
  getWorkspaceUsage: async (h) => ({ id: h.a.workspaceId }),
  updateWorkspaceMember: async (h) => ({ params: { id: h.a.workspaceId, member_id: await invite(h) }, body: { role: 'admin' } }),
  removeWorkspaceMember: async (h) => ({ id: h.a.workspaceId, member_id: await invite(h) }),
}

async function invite(h: TestApp): Promise<string> {
  const r = await h.request({
    method: 'POST',
    url: `/v2/workspaces/${h.a.workspaceId}/members`,
    payload: { email: `m${Math.random().toString(36).slice(2)}@example.com` },
  })
  return JSON.parse(r.body).id
}

const inbox: Record<string, Fixture> = {
  getConversation: async (h) => ({ id: await conversation(h) }),
  updateConversation: async (h) => ({ params: { id: await conversation(h) }, body: { subject: 'Renamed' } }),
  listMessages: async (h) => ({ id: await conversation(h) }),
  sendMessage: async (h) => ({ params: { id: await conversation(h) }, body: { content: 'Hello' } }),
  createAiDraft: async (h) => ({ params: { id: await conversation(h) }, body: {} }),
  assignConversation: async (h) => ({ params: { id: await conversation(h) }, body: { assignee_id: null } }),
  resolveConversation: async (h) => ({ id: await conversation(h) }),
}

async function conversation(h: TestApp): Promise<string> {
  const r = await h.request({ method: 'POST', url: '/v2/inbox/conversations', payload: { message: { content: 'How much is the Pro plan?' } } })
  return JSON.parse(r.body).id
}

const webhooks: Record<string, Fixture> = {
  getWebhookEndpoint: async (h) => ({ id: await webhookEndpoint(h) }),
  updateWebhookEndpoint: async (h) => ({ params: { id: await webhookEndpoint(h) }, body: { description: 'Renamed' } }),
  deleteWebhookEndpoint: async (h) => ({ id: await webhookEndpoint(h) }),
  testWebhookEndpoint: async (h) => ({ id: await webhookEndpoint(h) }),
  rotateWebhookSecret: async (h) => ({ params: { id: await webhookEndpoint(h) }, body: {} }),
  getPublicWebhookEndpoint: async (h) => ({ id: await webhookEndpoint(h) }),
  updatePublicWebhookEndpoint: async (h) => ({ params: { id: await webhookEndpoint(h) }, body: { description: 'Renamed' } }),
  deletePublicWebhookEndpoint: async (h) => ({ id: await webhookEndpoint(h) }),
  getWebhookDelivery: async (h) => ({ id: await webhookDelivery(h) }),
  replayWebhookDelivery: async (h) => ({ params: { id: await webhookDelivery(h) }, body: {} }),
  // Public (no key, no workspace): any well-formed token is an inbox, so there is no cross-workspace 404.
  captureWebhookPlaygroundGet: async () => ({ token: playgroundToken() }),
  captureWebhookPlaygroundPost: async () => ({ token: playgroundToken() }),
  captureWebhookPlaygroundPut: async () => ({ token: playgroundToken() }),
  captureWebhookPlaygroundPatch: async () => ({ token: playgroundToken() }),
  captureWebhookPlaygroundDelete: async () => ({ token: playgroundToken() }),
}

async function webhookEndpoint(h: TestApp): Promise<string> {
  const r = await h.request({ method: 'POST', url: '/v2/webhooks/endpoints', payload: { url: 'https://example.com/webhooks' } })
  return JSON.parse(r.body).id
}

async function webhookDelivery(h: TestApp): Promise<string> {
  const r = await h.request({ method: 'POST', url: `/v2/webhooks/endpoints/${await webhookEndpoint(h)}/test` })
  return JSON.parse(r.body).id
}

const playgroundToken = () => `pg${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}`.padEnd(24, 'x')

export const FIXTURES: Record<string, Fixture> = { ...workspaces, ...inbox, ...webhooks }
