import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { draftKey, readDraft, writeDraft } from './src/pages/inbox/draft-store.js'
import { inboxHref, modeOfParam } from './src/pages/inbox/inbox-url.js'
import { snoozePresets } from './src/pages/inbox/snooze-times.js'
import { fillTemplate, matchTemplates, pickerQuery, type ReplyTemplate } from './src/pages/inbox/templates.js'
import { keyOf } from './src/ui/shortcuts.js'

// The inbox working surface's rules that need no browser (the browser tests: dashboard/e2e/inbox-work*.e2e.test.ts).
const template = (name: string, shortcut: string | null, content = name): ReplyTemplate =>
  ({ object: 'reply_template', id: `tpl_${name}`, name, shortcut, content, language: null, placeholders: [], created_at: '', updated_at: '' }) as ReplyTemplate

describe('dashboard inbox working surface (pure rules)', { skip: process.env.TEST_DB === 'postgres' && 'no database involved: checked on SQLite' }, () => {
  it('opens the template picker only for "/" plus one word at the start', () => {
    assert.equal(pickerQuery('/'), '')
    assert.equal(pickerQuery('/Pri'), 'pri')
    assert.equal(pickerQuery('/pri ce'), null)
    assert.equal(pickerQuery('hello /pri'), null)
    assert.equal(pickerQuery('/pri\n'), null)
  })

  it('matches shortcuts first, then names, each by name, at most 8', () => {
    const all = [template('Zebra pricing', null), template('Refund', 'refund'), template('Pricing', 'price'), template('Apricot', 'apr')]
    assert.deepEqual(
      matchTemplates(all, '').map((t) => t.name),
      ['Apricot', 'Pricing', 'Refund', 'Zebra pricing'],
    )
    assert.deepEqual(
      matchTemplates(all, 'pri').map((t) => t.name),
      ['Pricing', 'Apricot', 'Zebra pricing'],
    )
    assert.deepEqual(
      matchTemplates(all, 'PRICE').map((t) => t.name),
      ['Pricing'],
    )
    assert.equal(
      matchTemplates(
        Array.from({ length: 12 }, (_, i) => template(`T${i}`, `t${i}`)),
        't',
      ).length,
      8,
    )
  })

  it('fills placeholders from the conversation and leaves unknown values visible', () => {
    const conv = { subject: 'Plans', contact: { name: 'Ada', email: null, phone: '+4930123' } } as never
    assert.equal(fillTemplate('Hi {{contact.name}}, re {{ conversation.subject }} ({{contact.phone}})', conv), 'Hi Ada, re Plans (+4930123)')
    assert.equal(fillTemplate('Mail: {{contact.email}}', conv), 'Mail: {{contact.email}}')
  })

  it('snooze presets: an hour on, tomorrow 9:00, next Monday 9:00 (a week on from a Monday)', () => {
    const wednesday = new Date(2026, 10, 25, 14, 5) // Wednesday 25 November 2026, 14:05 local
    const [hour, tomorrow, week] = snoozePresets(wednesday)
    assert.equal(hour!.until.getTime(), wednesday.getTime() + 3600_000)
    assert.deepEqual([tomorrow!.until.getDate(), tomorrow!.until.getHours(), tomorrow!.until.getMinutes()], [26, 9, 0])
    assert.deepEqual([week!.until.getDay(), week!.until.getDate(), week!.until.getHours()], [1, 30, 9])
    const monday = new Date(2026, 10, 30, 8, 0)
    assert.equal(snoozePresets(monday)[2]!.until.getDate(), 7)
    const sunday = new Date(2026, 10, 29, 22, 0)
    assert.equal(snoozePresets(sunday)[2]!.until.getDate(), 30)
  })

  it('writes the view into the URL, the mode always', () => {
    const none = { status: '', assignee: '', tag: '', channel: '' }
    assert.equal(inboxHref(undefined, none, '', 'live'), '/dashboard/inbox?mode=live')
    assert.equal(inboxHref('conv_1', { ...none, status: 'open', assignee: 'me' }, 'invoice 12', 'test'), '/dashboard/inbox/conv_1?status=open&assignee=me&q=invoice+12&mode=sandbox')
    assert.equal(modeOfParam('sandbox'), 'test')
    assert.equal(modeOfParam('test'), 'test')
    assert.equal(modeOfParam('live'), 'live')
    assert.equal(modeOfParam(undefined), undefined)
    assert.equal(modeOfParam('other'), undefined)
  })

  it('names keys as the shortcuts do (Ctrl and Cmd alike)', () => {
    const ev = (o: Partial<KeyboardEvent>) => ({ ctrlKey: false, metaKey: false, altKey: false, ...o }) as KeyboardEvent
    assert.equal(keyOf(ev({ key: 'j' })), 'j')
    assert.equal(keyOf(ev({ key: 'Enter', ctrlKey: true })), 'mod+Enter')
    assert.equal(keyOf(ev({ key: 'Enter', metaKey: true })), 'mod+Enter')
    assert.equal(keyOf(ev({ key: '?', shiftKey: true })), '?')
  })

  it('keeps drafts per key, drops empty and stale ones', () => {
    const store = new Map<string, string>()
    Object.assign(globalThis, {
      localStorage: {
        getItem: (k: string) => store.get(k) ?? null,
        setItem: (k: string, v: string) => void store.set(k, v),
        removeItem: (k: string) => void store.delete(k),
        key: (i: number) => [...store.keys()][i] ?? null,
        get length() {
          return store.size
        },
      },
    })
    const a = draftKey('ws_1', 'live', 'mem_1', 'conv_a')
    const b = draftKey('ws_1', 'live', 'mem_1', 'conv_b')
    assert.notEqual(a, draftKey('ws_1', 'test', 'mem_1', 'conv_a'))
    assert.notEqual(a, draftKey('ws_1', 'live', 'mem_2', 'conv_a'))
    writeDraft(a, 'Dear Ada', true)
    writeDraft(b, 'Dear Bob', false)
    assert.deepEqual([readDraft(a)?.text, readDraft(a)?.private, readDraft(b)?.text], ['Dear Ada', true, 'Dear Bob'])
    writeDraft(a, '   ', false)
    assert.equal(readDraft(a), null)
    assert.equal(store.has(a), false)
    store.set(b, JSON.stringify({ text: 'old', private: false, saved_at: new Date(Date.now() - 31 * 24 * 3600_000).toISOString() }))
    assert.equal(readDraft(b), null)
    store.set(b, 'not json')
    assert.equal(readDraft(b), null)
  })
})
