import type { Token, Tokens } from 'marked'
import { decodeText, normalizeNewlines } from './decode-text.js'
import { DocumentBuilder, type ParsedDocument } from './document-builder.js'
import { decodeEntities } from './html-entities.js'
import { joinHyphenatedWraps } from './unwrap-lines.js'

/**
 * Markdown through marked's lexer (CommonMark + GFM tables): headings become sections, the rest plain
 * text without markup. The title is the front matter's `title:` or the first level-1 heading.
 */
export async function parseMarkdown(input: Uint8Array): Promise<ParsedDocument> {
  const { Lexer } = await import('marked')
  let source = normalizeNewlines(decodeText(input))
  let title: string | null = null
  const front = source.match(/^---\n([\s\S]*?)\n(?:---|\.\.\.)\n/)
  if (front) {
    title = front[1]!.match(/^title:\s*(.+?)\s*$/m)?.[1]?.replace(/^(['"])(.*)\1$/, '$2') ?? null
    source = source.slice(front[0].length)
  }
  const b = new DocumentBuilder()
  const tokens = new Lexer({ gfm: true }).lex(source)
  for (const t of tokens) {
    if (title === null && t.type === 'heading' && (t as Tokens.Heading).depth === 1) title = plain((t as Tokens.Heading).tokens)
    block(b, t)
  }
  return b.build(title)
}

function block(b: DocumentBuilder, t: Token): void {
  switch (t.type) {
    case 'heading':
      b.heading((t as Tokens.Heading).depth, plain((t as Tokens.Heading).tokens))
      return
    case 'paragraph':
      b.paragraph(joinHyphenatedWraps(plain((t as Tokens.Paragraph).tokens)))
      return
    case 'text': // a tight list item's text
      b.inline(t.tokens ? plain(t.tokens) : decodeEntities((t as Tokens.Text).text))
      return
    case 'code':
      b.preformatted((t as Tokens.Code).text)
      return
    case 'blockquote':
      b.breakParagraph()
      for (const child of (t as Tokens.Blockquote).tokens) block(b, child)
      b.breakParagraph()
      return
    case 'list':
      b.breakParagraph()
      for (const item of (t as Tokens.List).items) {
        b.breakLine()
        for (const child of item.tokens) block(b, child)
        b.breakLine()
      }
      b.breakParagraph()
      return
    case 'table': {
      const table = t as Tokens.Table
      b.breakParagraph()
      for (const row of [table.header, ...table.rows]) {
        b.breakLine()
        for (const cell of row) b.inline(` ${plain(cell.tokens)} `)
      }
      b.breakParagraph()
      return
    }
    case 'html':
      b.paragraph(decodeEntities((t as Tokens.HTML).text.replace(/<!--[\s\S]*?-->|<[^>]*>/g, ' ')))
      return
    case 'hr':
      b.breakParagraph()
      return
    default: // space, def, checkbox: nothing to read
      return
  }
}

/** Inline tokens → their text: emphasis, links and code lose their markup, images keep their alt text. */
function plain(tokens: Token[] | undefined): string {
  if (!tokens) return ''
  let out = ''
  for (const t of tokens) {
    if (t.type === 'html' || t.type === 'checkbox') continue
    if (t.type === 'br') out += '\n'
    else if ('tokens' in t && Array.isArray(t.tokens) && t.tokens.length) out += plain(t.tokens)
    else if (t.type === 'codespan' || t.type === 'escape')
      out += (t as Tokens.Codespan).text // code is not entity-encoded in Markdown
    else if (t.type === 'text' || t.type === 'image') out += decodeEntities((t as Tokens.Text).text)
  }
  return out
}
