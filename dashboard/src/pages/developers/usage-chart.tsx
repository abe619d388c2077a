import { useEffect, useRef } from 'preact/hooks'
import uPlot from 'uplot'
import 'uplot/dist/uPlot.min.css'

/** A colour of the theme in force (styles.css custom properties): the canvas cannot read CSS itself. */
export const themeColor = (name: string): string => getComputedStyle(document.documentElement).getPropertyValue(name).trim()

export interface ChartSeries {
  label: string
  color: string
  values: number[]
  /** Bars (default) or a line. */
  kind?: 'bars' | 'line'
}

/**
 * A uPlot chart of values per UTC day. The canvas is an image to assistive technology (role="img",
 * `summary` as its name); the same numbers are in the data table the caller shows beside it.
 */
export function DayChart({ days, series, summary, height = 240 }: { days: string[]; series: ChartSeries[]; summary: string; height?: number }) {
  const box = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const el = box.current
    if (!el) return
    // Days as indices 0…n−1, each bar centred on its day's label.
    const xs = days.map((_d, i) => i)
    const bars = uPlot.paths.bars?.({ size: [0.6, 48] })
    const width = () => Math.max(260, el.clientWidth)
    const ink = themeColor('--muted')
    const grid = { stroke: themeColor('--line'), width: 1 }
    const everyNth = (u: uPlot) => Math.max(1, Math.ceil(days.length / Math.max(1, Math.floor(u.bbox.width / devicePixelRatio / 56))))
    const plot = new uPlot(
      {
        width: width(),
        height,
        legend: { show: false },
        cursor: { drag: { x: false, y: false } },
        scales: { x: { time: false, range: () => [-0.5, days.length - 0.5] }, y: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
        axes: [
          {
            stroke: ink,
            grid,
            ticks: grid,
            splits: (u) => xs.filter((i) => i % everyNth(u) === (days.length - 1) % everyNth(u)),
            values: (_u, splits) => splits.map((i) => (days[i] ? days[i].slice(5) : '')),
          },
          { stroke: ink, grid, ticks: grid, size: 50, values: (_u, splits) => splits.map((v) => (Number.isInteger(v) ? String(v) : '')) },
        ],
        series: [
          { value: (_u, i) => (i == null ? '' : (days[i] ?? '')) },
          ...series.map((s) =>
            s.kind === 'line'
              ? { label: s.label, stroke: s.color, width: 2, points: { show: true, size: 5 } }
              : { label: s.label, stroke: s.color, fill: `${s.color}cc`, width: 1, paths: bars, points: { show: false } },
          ),
        ],
      },
      [xs, ...series.map((s) => s.values)],
      el,
    )
    const canvas = plot.root.querySelector('canvas')
    canvas?.setAttribute('role', 'img')
    canvas?.setAttribute('aria-label', summary)
    const resize = new ResizeObserver(() => plot.setSize({ width: width(), height }))
    resize.observe(el)
    return () => {
      resize.disconnect()
      plot.destroy()
    }
  }, [days.join(), series.map((s) => `${s.label}:${s.values.join()}`).join('|'), summary, height])
  return (
    <figure class="usage-figure">
      <div ref={box} class="usage-chart" data-testid="usage-chart" />
      <figcaption class="usage-legend">
        {series.map((s) => (
          <span class="usage-key">
            <span class="usage-swatch" style={{ background: s.color }} aria-hidden="true" /> {s.label}
          </span>
        ))}
      </figcaption>
    </figure>
  )
}
