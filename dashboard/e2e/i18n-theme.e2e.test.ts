import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { ok, post } from './server.js'
import { checkA11y, screenshot, skip, startDashboard, type Dashboard } from './harness.js'

// Issue 31, point 4: the dashboard speaks the browser's language (English and German), a member can choose
// another in Settings, dates follow it; and it follows the system's dark mode with AA contrast.
describe('dashboard languages and dark mode in Chromium', { skip }, () => {
  let d: Dashboard
  before(async () => {
    d = await startDashboard()
    await ok(post(d.h, '/bots', { name: 'Support bot' }), 201)
  })
  after(() => d?.close())

  it('a German browser gets German text, German dates and <html lang="de">; Settings switches to English and back', async () => {
    const page = await d.open({ locale: 'de-DE' })
    await d.signIn(page, '/dashboard')
    await page.getByRole('heading', { name: 'Übersicht', level: 1 }).waitFor()
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'de')
    const nav = page.getByRole('navigation', { name: 'Hauptnavigation' })
    for (const name of ['Posteingang', 'Wissen', 'Agenten', 'Einstellungen']) await nav.getByRole('link', { name }).waitFor()
    // The heading renders before the workspace has loaded ("Wird geladen …"): wait for the sentence itself.
    const summary = page.locator('main p', { hasText: /^Arbeitsbereich Acme / }).first()
    await summary.waitFor()
    assert.match((await summary.textContent()) ?? '', /^Arbeitsbereich Acme .*Modus Live, Ihre Rolle: Eigentümer\.$/)
    await checkA11y(page, 'overview in German')

    // An area's catalogue comes with its chunk: the bots list, its status in German, the date as Germans write it.
    await nav.getByRole('link', { name: 'Bots' }).click()
    await page.getByRole('heading', { name: 'Bots', level: 1 }).waitFor()
    await page.getByRole('button', { name: 'Neuer Bot' }).waitFor()
    const table = page.getByRole('region', { name: 'Bots' })
    for (const header of ['Name', 'Status', 'Versionen', 'Entwurf', 'Geändert']) await table.getByRole('columnheader', { name: header }).waitFor()
    assert.equal(await table.locator('tbody .badge').first().textContent(), 'Entwurf', 'the status draft')
    const updated = (await table.locator('tbody time').first().textContent()) ?? ''
    assert.match(updated, /^\d{1,2}\.\d{1,2}\.\d{4}, \d{2}:\d{2}:\d{2}$/, `a German date and time: ${updated}`)
    assert.equal(await page.title(), 'Bots · Dashboard')
    await checkA11y(page, 'bots in German')
    await screenshot(page, 'language-de-bots')

    // Settings → the dashboard's language: English for this browser, kept across a reload.
    await page.goto('/dashboard/settings/workspace')
    const select = page.getByTestId('language-select')
    await select.waitFor()
    assert.equal(await select.inputValue(), '')
    await select.selectOption('en')
    await page.getByRole('heading', { name: 'Workspace', level: 1 }).waitFor()
    assert.equal(await page.evaluate(() => [document.documentElement.lang, localStorage.getItem('svc.locale')].join()), 'en,en')
    await page.reload()
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Knowledge' }).waitFor()
    await page.getByRole('heading', { name: 'Workspace', level: 1 }).waitFor()
    // The browser's language again: German.
    await page.getByTestId('language-select').selectOption('')
    await page.getByRole('heading', { name: 'Arbeitsbereich', level: 1 }).waitFor()
    assert.equal(await page.evaluate(() => [document.documentElement.lang, localStorage.getItem('svc.locale') ?? 'none'].join()), 'de,none')
    d.clean(page)
  })

  it('an English browser keeps English; a French one falls back to English', async () => {
    for (const locale of ['en-US', 'fr-FR']) {
      const page = await d.open({ locale })
      await d.signIn(page, '/dashboard/bots')
      await page.getByRole('button', { name: 'New bot' }).waitFor()
      assert.equal(await page.evaluate(() => document.documentElement.lang), 'en')
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Overview' }).waitFor()
      d.clean(page)
    }
  })

  it('follows a dark system setting: dark surfaces, light text, axe clean in both themes', async () => {
    const luminance = (rgb: string) => {
      const [r, g, b] = (rgb.match(/\d+/g) ?? []).slice(0, 3).map((x) => {
        const c = Number(x) / 255
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
      })
      return 0.2126 * r + 0.7152 * g + 0.0722 * b
    }
    for (const colorScheme of ['dark', 'light'] as const) {
      const page = await d.open({ colorScheme })
      await d.signIn(page, '/dashboard')
      await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor()
      const colours = await page.evaluate(() => {
        const body = getComputedStyle(document.documentElement)
        const panel = getComputedStyle(document.querySelector('header.top')!)
        return { bg: body.backgroundColor, text: body.color, panel: panel.backgroundColor }
      })
      if (colorScheme === 'dark') {
        assert.ok(luminance(colours.bg) < 0.05 && luminance(colours.panel) < 0.05, `dark surfaces: ${JSON.stringify(colours)}`)
        assert.ok(luminance(colours.text) > 0.7, `light text: ${colours.text}`)
      } else {
        assert.ok(luminance(colours.bg) > 0.85 && luminance(colours.text) < 0.05, `light theme: ${JSON.stringify(colours)}`)
      }
      await checkA11y(page, `overview, ${colorScheme}`)
      for (const path of ['/dashboard/bots', '/dashboard/settings/workspace', '/dashboard/settings/members', '/dashboard/inbox']) {
        await page.goto(path)
        await page.locator('#page-title').waitFor()
        await page.locator('.state.loading').waitFor({ state: 'detached' })
        await checkA11y(page, `${path}, ${colorScheme}`)
      }
      if (colorScheme === 'dark') {
        await page.goto('/dashboard/bots')
        await page.getByRole('button', { name: 'New bot' }).click()
        await page.getByRole('dialog', { name: 'New bot' }).waitFor()
        await checkA11y(page, 'a dialog, dark')
        await page.keyboard.press('Escape')
        await screenshot(page, 'dark-bots')
        await page.goto('/dashboard/settings/workspace')
        await page.getByTestId('language-select').waitFor()
        await screenshot(page, 'dark-settings')
      }
      d.clean(page)
    }
  })
})
