import { useLocation } from 'preact-iso'
import { useWorkspace } from './workspace.js'

/** A sub-navigation link; `admin` pages are hidden from members, whom the API refuses them (docs/api-conventions.md "Roles"). */
export interface SubNavLink {
  href: string
  label: string
  admin?: boolean
}

/** Whether the signed-in member's role reaches admin (owners and admins). */
export function useIsAdmin(): boolean {
  const { membership } = useWorkspace()
  return membership.role === 'owner' || membership.role === 'admin'
}

/** An area's own links (Developers: Keys, Webhooks, …), the current one marked for assistive technology. */
export function SubNav({ label, links: all }: { label: string; links: SubNavLink[] }) {
  const { path } = useLocation()
  const admin = useIsAdmin()
  const links = all.filter((l) => admin || !l.admin)
  // The longest link the path is at or under: an agent's "Runs" (/agents/x) is not current on /agents/x/edit.
  const under = links.filter((l) => path === l.href || path.startsWith(`${l.href}/`))
  const currentHref = under.reduce<string | null>((best, l) => (best === null || l.href.length > best.length ? l.href : best), null)
  return (
    <nav class="sub-nav" aria-label={label}>
      <ul>
        {links.map((l) => {
          const current = l.href === currentHref
          return (
            <li>
              <a href={l.href} aria-current={current ? 'page' : undefined}>
                {l.label}
              </a>
            </li>
          )
        })}
      </ul>
    </nav>
  )
}
