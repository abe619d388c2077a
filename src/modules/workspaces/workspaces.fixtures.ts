import type { Fixture, FixtureClient } from '../../kernel/module.js'

// Loaded only by the shared route-table tests (security, cursors, aliases), found by test/fixtures.ts.

async function invite(c: FixtureClient): Promise<string> {
  const r = await c.request({ method: 'POST', url: `/v2/workspaces/${c.a.workspaceId}/members`, payload: { email: `m${Math.random().toString(36).slice(2)}@example.com` } })
  return JSON.parse(r.body).id
}

export const FIXTURES: Record<string, Fixture> = {
  getWorkspace: async (c) => ({ id: c.a.workspaceId }),
  updateWorkspace: async (c) => ({ params: { id: c.a.workspaceId }, body: { name: 'Renamed' } }),
  listWorkspaceMembers: async (c) => ({ id: c.a.workspaceId }),
  inviteWorkspaceMember: async (c) => ({ params: { id: c.a.workspaceId }, body: { email: 'new@example.com' } }),
  getWorkspaceUsage: async (c) => ({ id: c.a.workspaceId }),
  updateWorkspaceMember: async (c) => ({ params: { id: c.a.workspaceId, member_id: await invite(c) }, body: { role: 'admin' } }),
  removeWorkspaceMember: async (c) => ({ id: c.a.workspaceId, member_id: await invite(c) }),
}
