// docs/performance.svg: a horizontal bar per path and engine, the ratio to its baseline, with the targets
// as vertical lines. Hand-written SVG: readable on GitHub and in any browser, no dependency.

export interface Bar {
  label: string
  /** Ratio per engine (missing: not measured). */
  values: Record<string, number | undefined>
}

const ENGINES: [string, string, string][] = [
  ['sqlite', 'SQLite', '#2563eb'],
  ['postgres', 'PostgreSQL', '#ea580c'],
]
const TARGETS: [number, string][] = [
  [0.25, 'target 0.25× (writes)'],
  [0.5, 'target 0.5× (reads)'],
]

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

export function chart(title: string, bars: Bar[]): string {
  const labelW = 330
  const plotW = 400
  const barH = 11
  const groupH = ENGINES.length * barH + 12
  const top = 58
  const height = top + bars.length * groupH + 28
  const width = labelW + plotW + 60
  const max = Math.max(1, ...bars.flatMap((b) => Object.values(b.values).filter((v): v is number => v !== undefined)))
  const x = (v: number) => labelW + (v / max) * plotW
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, -apple-system, Segoe UI, sans-serif" font-size="12">`,
    `<rect width="100%" height="100%" fill="#ffffff"/>`,
    `<text x="10" y="20" font-size="14" font-weight="600">${esc(title)}</text>`,
  ]
  ENGINES.forEach(([, name, color], i) => {
    out.push(`<rect x="${10 + i * 110}" y="30" width="12" height="12" fill="${color}"/><text x="${26 + i * 110}" y="40">${name}</text>`)
  })
  for (let t = 0; t <= max + 1e-9; t += 0.25) {
    out.push(`<line x1="${x(t)}" y1="${top - 6}" x2="${x(t)}" y2="${height - 24}" stroke="#e5e7eb"/>`)
    out.push(`<text x="${x(t)}" y="${height - 10}" text-anchor="middle" fill="#6b7280">${t}×</text>`)
  }
  bars.forEach((bar, g) => {
    const y0 = top + g * groupH
    out.push(`<text x="${labelW - 8}" y="${y0 + groupH / 2 - 2}" text-anchor="end">${esc(bar.label)}</text>`)
    ENGINES.forEach(([key, , color], i) => {
      const v = bar.values[key]
      const y = y0 + i * barH
      if (v === undefined) return
      out.push(`<rect x="${labelW}" y="${y}" width="${Math.max(1, x(v) - labelW)}" height="${barH - 2}" fill="${color}"/>`)
      out.push(`<text x="${x(v) + 4}" y="${y + barH - 3}" font-size="10" fill="#374151">${v}</text>`)
    })
  })
  TARGETS.forEach(([t, label], i) => {
    out.push(`<line x1="${x(t)}" y1="${top - 20 + i * 10}" x2="${x(t)}" y2="${height - 24}" stroke="#dc2626" stroke-dasharray="4 3"/>`)
    out.push(`<text x="${x(t) + 3}" y="${top - 12 + i * 10 - 10}" font-size="10" fill="#dc2626">${label}</text>`)
  })
  out.push('</svg>')
  return out.join('\n') + '\n'
}
