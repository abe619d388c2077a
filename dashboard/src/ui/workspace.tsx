import { createContext } from 'preact'
import { useContext } from 'preact/hooks'
import type { Api } from '../api/client.js'
import type { Membership, SessionInfo } from '../api/session.js'

/** What every page works in: the member, the chosen workspace and mode, and the API bound to them. */
export interface WorkspaceContext {
  session: SessionInfo
  membership: Membership
  api: Api
  /** Switches workspace and/or mode (the toggle in the header). */
  switchTo(workspaceId: string, mode: 'live' | 'test'): void
  /** Reads the session again: after a change to what it shows (the workspace's name, the member's role). */
  refreshSession(): Promise<void>
}

export const Workspace = createContext<WorkspaceContext | null>(null)

export function useWorkspace(): WorkspaceContext {
  const ctx = useContext(Workspace)
  if (!ctx) throw new Error('useWorkspace outside <Workspace.Provider>')
  return ctx
}

/** The API of the chosen workspace and mode. */
export const useApiClient = (): Api => useWorkspace().api
