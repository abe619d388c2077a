import { useLocation } from 'preact-iso'

/** An area's own links (Developers: Keys, Webhooks, …), the current one marked for assistive technology. */
export function SubNav({ label, links }: { label: string; links: { href: string; label: string }[] }) {
  const { path } = useLocation()
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
