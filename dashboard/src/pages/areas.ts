import { lazy } from 'preact-iso'

/**
 * The dashboard's areas: the main navigation, each loaded on first visit (its own chunk). An area's
 * index.tsx routes its own sub-paths (nested <Router>) and shows its <SubNav>.
 */
export const AREAS = [
  { path: '/dashboard/inbox', label: 'Inbox', component: lazy(() => import('./inbox/index.js')) },
  { path: '/dashboard/bots', label: 'Bots', component: lazy(() => import('./bots/index.js')) },
  { path: '/dashboard/knowledge', label: 'Knowledge', component: lazy(() => import('./knowledge/index.js')) },
  { path: '/dashboard/agents', label: 'Agents', component: lazy(() => import('./agents/index.js')) },
  { path: '/dashboard/leads', label: 'Leads', component: lazy(() => import('./leads/index.js')) },
  { path: '/dashboard/voice', label: 'Voice', component: lazy(() => import('./voice/index.js')) },
  { path: '/dashboard/compliance', label: 'Compliance', component: lazy(() => import('./compliance/index.js')) },
  { path: '/dashboard/developers', label: 'Developers', component: lazy(() => import('./developers/index.js')) },
  { path: '/dashboard/settings', label: 'Settings', component: lazy(() => import('./settings/index.js')) },
] as const
