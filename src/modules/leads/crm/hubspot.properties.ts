import type { CrmLead } from './crm.types.js'

// Our lead as HubSpot contact properties (internal names). Documented in README.md: keep them in step.

/**
 * Our status → HubSpot's default `hs_lead_status` options (internal values). HubSpot has no "lost":
 * BAD_TIMING is its option for a lead that is not buying now but not disqualified either.
 */
export const HS_LEAD_STATUS: Readonly<Record<string, string>> = {
  new: 'NEW',
  contacted: 'CONNECTED',
  qualified: 'IN_PROGRESS',
  converted: 'OPEN_DEAL',
  unqualified: 'UNQUALIFIED',
  lost: 'BAD_TIMING',
}

/** The properties our lead fields own: a custom property of the same name does not override them. */
const OWN = new Set(['email', 'firstname', 'lastname', 'phone', 'company', 'jobtitle'])

/** "Ada King Lovelace" → firstname "Ada", lastname "King Lovelace"; one word is a first name only. */
export function splitName(name: string | null): { firstname?: string; lastname?: string } {
  const parts = (name ?? '').trim().split(/\s+/).filter(Boolean)
  if (parts.length === 0) return {}
  if (parts.length === 1) return { firstname: parts[0] }
  return { firstname: parts[0], lastname: parts.slice(1).join(' ') }
}

export const normaliseEmail = (email: string | null): string | null => {
  const e = email?.trim().toLowerCase()
  return e ? e : null
}

/**
 * HubSpot property values are strings. Nulls are left out rather than sent as "" (which clears the
 * property): a sync must not erase what a salesperson typed into HubSpot because our lead lacks it.
 */
export function hubspotProperties(lead: CrmLead): Record<string, string> {
  const props: Record<string, string> = {}
  // Custom properties first, so our own fields win over a same-named custom one.
  for (const [key, value] of Object.entries(lead.properties ?? {})) {
    if (value === null || value === undefined || OWN.has(key)) continue
    props[key] = String(value)
  }
  const set = (key: string, value: string | null | undefined) => {
    if (value !== null && value !== undefined && value.trim() !== '') props[key] = value.trim()
  }
  set('email', normaliseEmail(lead.email))
  const { firstname, lastname } = splitName(lead.name)
  set('firstname', firstname)
  set('lastname', lastname)
  set('phone', lead.phone)
  set('company', lead.company)
  set('jobtitle', lead.title)
  // A custom `hs_lead_status` wins: portals that renamed or replaced the default options map their own.
  if (props.hs_lead_status === undefined) set('hs_lead_status', HS_LEAD_STATUS[lead.status])
  return props
}
