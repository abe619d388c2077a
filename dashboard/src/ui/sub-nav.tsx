import { useLocation } from 'preact-iso'

/** An area's own links (Developers: Keys, Webhooks, …), the current one marked for assistive technology. */
export function SubNav({ label, links }: { label: string; links: { href: string; label: string }[] }) {
  const { path } = useLocation()
  return (
    <nav class="sub-nav" aria-label={label}>
      <ul>
        {links.map((l) => {
          const current = path === l.href || path.startsWith(`${l.href}/`)
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
