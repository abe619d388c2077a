import type { ComponentType } from 'preact'
import { lazy } from 'preact-iso'
import { register, type Catalogue, type MessageKey } from '../i18n/index.js'

/** An area's chunk together with its text catalogue (registered before the area first renders). */
function area<T>(messages: () => Promise<{ default: Catalogue }>, page: () => Promise<T>): () => Promise<T> {
  return () => Promise.all([messages(), page()]).then(([m, p]) => (register(m.default), p))
}

/**
 * The dashboard's areas: the main navigation, each loaded on first visit (its own chunk, with its
 * messages). An area's index.tsx routes its own sub-paths (nested <Router>) and shows its <SubNav>.
 * `label` is a message key.
 */
export const AREAS: readonly { path: string; label: MessageKey; component: ComponentType<any> }[] = [
  {
    path: '/dashboard/inbox',
    label: 'nav.inbox',
    component: lazy(
      area(
        () => import('../i18n/messages/inbox.js'),
        () => import('./inbox/index.js'),
      ),
    ),
  },
  {
    path: '/dashboard/bots',
    label: 'nav.bots',
    component: lazy(
      area(
        () => import('../i18n/messages/bots.js'),
        () => import('./bots/index.js'),
      ),
    ),
  },
  {
    path: '/dashboard/knowledge',
    label: 'nav.knowledge',
    component: lazy(
      area(
        () => import('../i18n/messages/knowledge.js'),
        () => import('./knowledge/index.js'),
      ),
    ),
  },
  {
    path: '/dashboard/agents',
    label: 'nav.agents',
    component: lazy(
      area(
        () => import('../i18n/messages/agents.js'),
        () => import('./agents/index.js'),
      ),
    ),
  },
  {
    path: '/dashboard/leads',
    label: 'nav.leads',
    component: lazy(
      area(
        () => import('../i18n/messages/leads.js'),
        () => import('./leads/index.js'),
      ),
    ),
  },
  {
    path: '/dashboard/voice',
    label: 'nav.voice',
    component: lazy(
      area(
        () => import('../i18n/messages/voice.js'),
        () => import('./voice/index.js'),
      ),
    ),
  },
  {
    path: '/dashboard/channels',
    label: 'nav.channels',
    component: lazy(
      area(
        () => import('../i18n/messages/channels.js'),
        () => import('./channels/index.js'),
      ),
    ),
  },
  {
    path: '/dashboard/compliance',
    label: 'nav.compliance',
    component: lazy(
      area(
        () => import('../i18n/messages/compliance.js'),
        () => import('./compliance/index.js'),
      ),
    ),
  },
  {
    path: '/dashboard/developers',
    label: 'nav.developers',
    component: lazy(
      area(
        () => import('../i18n/messages/developers.js'),
        () => import('./developers/index.js'),
      ),
    ),
  },
  {
    path: '/dashboard/settings',
    label: 'nav.settings',
    component: lazy(
      area(
        () => import('../i18n/messages/settings.js'),
        () => import('./settings/index.js'),
      ),
    ),
  },
]
