import type { Services } from '../../../kernel/services.js'
import type { Principal } from '../../../kernel/tenant.js'

// The sample data of a new sandbox: an outdoor-gear shop's support desk. Made through the other modules'
// services (their rules, events and jobs apply: documents are chunked, the webhook endpoint receives the
// events of everything made after it), in the order below.

const TAGS = [
  { name: 'shipping', color: '#3b82f6' },
  { name: 'returns', color: '#10b981' },
  { name: 'billing', color: '#f59e0b' },
  { name: 'vip', color: '#8b5cf6' },
]

const KNOWLEDGE_BASE = { name: 'Northwind Help Center', description: 'Policies the support team and the assistant answer from.', language: 'en' }

const DOCUMENTS = [
  {
    title: 'Shipping and delivery',
    text: [
      '# Shipping and delivery',
      '',
      'Orders placed before 2 pm ship the same business day from our warehouse.',
      '',
      '## Rates',
      'Standard shipping (3–5 business days) is free on orders over $50, otherwise $6.95.',
      'Express shipping (1–2 business days) costs $14.95.',
      '',
      '## Tracking',
      'Every order gets a tracking link by email once the parcel leaves the warehouse. Tracking can take up to 24 hours to update after a hand-over between carriers.',
    ].join('\n'),
  },
  {
    title: 'Returns and refunds',
    text: [
      '# Returns and refunds',
      '',
      'Unused items can be returned within 30 days of delivery. Returns are free: we email a prepaid label.',
      '',
      '## Refunds',
      'Refunds go back to the original payment method within 5 business days of the return reaching us.',
      'Sale items can be exchanged but not refunded.',
    ].join('\n'),
  },
  {
    title: 'Warranty',
    text: [
      '# Warranty',
      '',
      'Tents, backpacks and jackets carry a 2-year warranty against manufacturing defects.',
      'Send a photo of the defect and the order number; we repair or replace the item at no cost.',
    ].join('\n'),
  },
]

const BOT = {
  name: 'Support Assistant',
  description: 'Answers shipping, returns and warranty questions from the help center.',
  instructions: 'You are the support assistant of Northwind Outfitters, an outdoor-gear shop. Answer briefly and kindly from the help center; hand over to a person for anything about payments.',
  greeting: 'Hi! I’m the Northwind assistant. Ask me about an order, a return or our warranty.',
}

const AGENT = {
  name: 'Order Follow-up',
  description: 'Looks up the policy that applies to a customer request and drafts the next step.',
  instructions: 'Given a customer request, search the help center for the policy that applies and propose the next step for the support team.',
}

const CONVERSATIONS: {
  channel: 'email' | 'chat' | 'sms'
  status: 'open' | 'pending'
  subject: string
  contact: { name: string; email?: string; phone?: string }
  tags: string[]
  messages: { direction: 'inbound' | 'outbound'; content: string }[]
}[] = [
  {
    channel: 'email',
    status: 'open',
    subject: 'Where is my order #10482?',
    contact: { name: 'Emma Larson', email: 'emma.larson@example.com' },
    tags: ['shipping'],
    messages: [
      { direction: 'inbound', content: 'Hi, I ordered a 2-person tent on Monday (order #10482) and the tracking has not updated since Wednesday. Can you check?' },
      {
        direction: 'outbound',
        content: 'Hi Emma, thanks for reaching out! Your parcel is at the regional hub and should arrive within 2 business days; tracking updates once the carrier scans it again.',
      },
    ],
  },
  {
    channel: 'chat',
    status: 'open',
    subject: 'Return a rain jacket',
    contact: { name: 'Noah Becker', email: 'noah.becker@example.com' },
    tags: ['returns'],
    messages: [
      { direction: 'inbound', content: 'Can I return a rain jacket I bought three weeks ago? It is a size too small.' },
      { direction: 'outbound', content: 'Yes, returns are free within 30 days. I have emailed you a prepaid label; the refund follows within 5 business days of the jacket reaching us.' },
    ],
  },
  {
    channel: 'sms',
    status: 'pending',
    subject: 'Headlamps for a hiking club',
    contact: { name: 'Sofia Rossi', phone: '+14155550142' },
    tags: ['vip', 'billing'],
    messages: [
      { direction: 'inbound', content: 'We would like 20 headlamps for our hiking club. Do you offer a group discount, and can you invoice us?' },
      { direction: 'outbound', content: 'Great question! Orders of 15 or more get 10% off and we invoice on 30-day terms. Our sales team will send you a quote today.' },
    ],
  },
]

const LEADS = [
  { name: 'Maya Chen', email: 'maya.chen@trailhead-coop.example', company: 'Trailhead Co-op', title: 'Purchasing Manager', tags: ['wholesale'] },
  { name: 'Luis Ortega', email: 'luis@summitguides.example', company: 'Summit Guides', title: 'Owner', tags: ['partner'] },
]

/** What one seeding run needs: the sandbox's principal, what earlier runs made, and how to record each new object. */
export interface SeedRun {
  services: Services
  principal: Principal
  /** `{ step: id }` of the objects already made (a retried job skips them). */
  done: Record<string, string>
  /** Persists one step as done (called right after the object was made). */
  record(step: string, id: string): Promise<void>
  playgroundUrl: string
}

/**
 * Makes the sample data, skipping each step an earlier run recorded. Each object is made in its module's own
 * transaction and then recorded, so a crash between the two repeats that one object on the retry (at most
 * one duplicate per crash); everything before it is skipped.
 */
export async function seedSandbox(run: SeedRun): Promise<void> {
  const { services: s, principal: p } = run
  const step = async (key: string, make: () => Promise<string>): Promise<string> => {
    if (run.done[key]) return run.done[key]
    const id = await make()
    run.done[key] = id
    await run.record(key, id)
    return id
  }

  // First, so the events of everything below are delivered to the Playground.
  await step(
    'webhook_endpoint',
    async () => (await s.webhooks.endpoints.create(p, { url: run.playgroundUrl, description: 'Sample endpoint: every event of this sandbox, delivered to the Webhook Playground.' })).id,
  )
  for (const tag of TAGS) await step(`tag:${tag.name}`, async () => (await s.inbox.tags.create(p, tag)).id)

  const kb = await step('knowledge_base', async () => (await s.knowledge.bases.create(p, KNOWLEDGE_BASE)).id)
  for (const [i, doc] of DOCUMENTS.entries()) {
    await step(`knowledge_document:${i}`, async () => (await s.knowledge.documents.create(p, kb, doc)).body.id)
  }
  const bot = await step('bot', async () => (await s.bots.bots.create(p, { ...BOT, knowledge_base_ids: [kb] })).id)
  await step('bot_published', async () => (await s.bots.versions.publish(p, bot, {})).published_version_id ?? bot)
  await step('agent', async () => (await s.agents.agents.create(p, { ...AGENT, knowledge_base_ids: [kb], tools: [{ type: 'builtin', name: 'search_knowledge' }] })).id)

  const conversations: string[] = []
  for (const [i, c] of CONVERSATIONS.entries()) {
    const id = await step(`conversation:${i}`, async () => (await s.inbox.conversations.create(p, { channel: c.channel, status: c.status, subject: c.subject, contact: c.contact, tags: c.tags })).id)
    for (const [j, m] of c.messages.entries()) await step(`message:${i}:${j}`, async () => (await s.inbox.messages.send(p, id, m)).id)
    conversations.push(id)
  }

  for (const [i, lead] of LEADS.entries()) await step(`lead:${i}`, async () => (await s.leads.leads.create(p, { ...lead, source: 'api' })).id)
  // The club's enquiry becomes a lead: its contact fills the name and phone.
  await step(`lead:${LEADS.length}`, async () => (await s.leads.leads.create(p, { source: 'conversation', source_id: conversations[2], company: 'Bay Area Hiking Club', tags: ['group-order'] })).id)
}
