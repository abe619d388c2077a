import type { DocumentBuilder } from './document-builder.js'

// Read as their own paragraph.
const BLOCK = new Set([
  'ADDRESS',
  'ARTICLE',
  'ASIDE',
  'BLOCKQUOTE',
  'BODY',
  'CENTER',
  'DETAILS',
  'DIALOG',
  'DIV',
  'DL',
  'FIELDSET',
  'FIGURE',
  'FOOTER',
  'FORM',
  'HEADER',
  'HGROUP',
  'MAIN',
  'MENU',
  'NAV',
  'OL',
  'P',
  'SECTION',
  'SUMMARY',
  'TABLE',
  'UL',
])
// Read as their own line: list items and table rows stay one under the other.
const LINE = new Set(['CAPTION', 'DD', 'DT', 'FIGCAPTION', 'LEGEND', 'LI', 'OPTION', 'TR'])
// Never text a reader sees.
const SKIP = new Set([
  'AUDIO',
  'BUTTON',
  'CANVAS',
  'EMBED',
  'HEAD',
  'IFRAME',
  'INPUT',
  'MAP',
  'MATH',
  'NOSCRIPT',
  'OBJECT',
  'SCRIPT',
  'SELECT',
  'STYLE',
  'SVG',
  'TEMPLATE',
  'TEXTAREA',
  'TITLE',
  'VIDEO',
])
// Page furniture, dropped when the whole body is read because main-content extraction found nothing.
const CHROME = new Set(['ASIDE', 'FOOTER', 'FORM', 'NAV'])

interface DomNode {
  nodeType: number
  nodeName: string
  textContent: string | null
  childNodes: ArrayLike<DomNode>
  getAttribute?(name: string): string | null
}

/** Writes the text under `root` into the builder: h1–h6 as headings, blocks as paragraphs, <pre> kept as is. */
export function htmlToDocument(root: DomNode, b: DocumentBuilder, opts: { dropChrome?: boolean } = {}): void {
  visit(root, b, opts.dropChrome ?? false)
}

function visit(node: DomNode, b: DocumentBuilder, dropChrome: boolean): void {
  if (node.nodeType === 3) {
    b.inline(node.textContent ?? '')
    return
  }
  if (node.nodeType !== 1 && node.nodeType !== 9 && node.nodeType !== 11) return
  const tag = node.nodeName.toUpperCase()
  if (SKIP.has(tag)) return
  if (node.getAttribute && (node.getAttribute('hidden') !== null || node.getAttribute('aria-hidden') === 'true')) return
  if (dropChrome && CHROME.has(tag)) return
  const heading = /^H([1-6])$/.exec(tag)
  if (heading) {
    b.heading(Number(heading[1]), node.textContent ?? '')
    return
  }
  if (tag === 'PRE') {
    b.preformatted(node.textContent ?? '')
    return
  }
  if (tag === 'BR') return b.breakLine()
  if (tag === 'HR') return b.breakParagraph()
  const kind = BLOCK.has(tag) ? 'block' : LINE.has(tag) ? 'line' : tag === 'TD' || tag === 'TH' ? 'cell' : 'inline'
  if (kind === 'block') b.breakParagraph()
  else if (kind === 'line') b.breakLine()
  else if (kind === 'cell') b.inline(' ')
  const children = node.childNodes
  for (let i = 0; i < children.length; i++) visit(children[i]!, b, dropChrome)
  if (kind === 'block') b.breakParagraph()
  else if (kind === 'line') b.breakLine()
  else if (kind === 'cell') b.inline(' ')
}
