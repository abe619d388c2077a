export interface Section {
  headingPath: string[]
  start: number
  end: number
}
export interface PageRange {
  page: number
  start: number
  end: number
}
/** A document as plain text; every range is [start, end) in `text`, in UTF-16 code units like String#slice. */
export interface ParsedDocument {
  title: string | null
  text: string
  sections: Section[]
  pages: PageRange[] | null
}

const NONE = 0
const LINE = 1
const PARAGRAPH = 2

/**
 * Writes a document's text block by block and records where its sections and pages fall. Every parser
 * goes through it, so the text has one shape: blocks apart by a blank line, list items and table rows by
 * one newline, runs of spaces collapsed, no leading or trailing whitespace; a heading starts its section.
 */
export class DocumentBuilder {
  private parts: string[] = []
  private length = 0
  private pendingBreak = NONE
  private pendingSpace = false
  private headings: { level: number; text: string }[] = []
  private sectionStart = -1
  private sections: Section[] = []
  private pages: PageRange[] = []
  private pageOpen = false

  /** Inline text inside the current block: whitespace runs become one space, none at a block's edges. */
  inline(raw: string): void {
    if (raw === '') return
    const words = raw.split(/\s+/)
    if (words[0] === '') this.pendingSpace = true
    let first = true
    for (const w of words) {
      if (w === '') continue
      if (!first) this.pendingSpace = true
      first = false
      this.write(w)
    }
    if (words.length > 1 && words[words.length - 1] === '') this.pendingSpace = true
  }

  /** Preformatted text (code): kept line by line, trailing spaces and blank edge lines dropped. */
  preformatted(raw: string): void {
    const lines = raw
      .replace(/\r\n?/g, '\n')
      .split('\n')
      .map((l) => l.replace(/\s+$/, ''))
    while (lines.length && lines[0] === '') lines.shift()
    while (lines.length && lines[lines.length - 1] === '') lines.pop()
    if (!lines.length) return
    this.breakParagraph()
    this.write(lines.join('\n').replace(/\n{3,}/g, '\n\n'))
    this.breakParagraph()
  }

  breakLine(): void {
    this.pendingBreak = Math.max(this.pendingBreak, LINE)
    this.pendingSpace = false
  }

  breakParagraph(): void {
    this.pendingBreak = PARAGRAPH
    this.pendingSpace = false
  }

  paragraph(raw: string): void {
    this.breakParagraph()
    this.inline(raw)
    this.breakParagraph()
  }

  /** A heading of level 1–6 closes the open section and starts the next one at the heading's text. */
  heading(level: number, raw: string): void {
    const text = raw.replace(/\s+/g, ' ').trim()
    if (!text) return
    this.closeSection()
    while (this.headings.length && this.headings[this.headings.length - 1]!.level >= level) this.headings.pop()
    this.headings.push({ level, text })
    this.breakParagraph()
    this.write(text)
    this.sectionStart = this.length - text.length
    this.breakParagraph()
  }

  startPage(page: number): void {
    this.endPage()
    this.breakParagraph()
    this.pages.push({ page, start: -1, end: -1 })
    this.pageOpen = true
  }

  endPage(): void {
    if (!this.pageOpen) return
    const p = this.pages[this.pages.length - 1]!
    if (p.start < 0) p.start = this.length
    p.end = this.length
    this.pageOpen = false
  }

  build(title: string | null, withPages = false): ParsedDocument {
    this.endPage()
    this.closeSection()
    const text = this.parts.join('')
    const clean = title?.replace(/\s+/g, ' ').trim()
    return { title: clean ? clean : null, text, sections: this.sections, pages: withPages ? this.pages : null }
  }

  private write(s: string): void {
    if (this.length > 0) {
      if (this.pendingBreak === PARAGRAPH) this.push('\n\n')
      else if (this.pendingBreak === LINE) this.push('\n')
      else if (this.pendingSpace) this.push(' ')
    }
    this.pendingBreak = NONE
    this.pendingSpace = false
    if (this.sectionStart < 0) this.sectionStart = this.length
    if (this.pageOpen) {
      const p = this.pages[this.pages.length - 1]!
      if (p.start < 0) p.start = this.length
    }
    this.push(s)
  }

  private push(s: string): void {
    this.parts.push(s)
    this.length += s.length
  }

  private closeSection(): void {
    if (this.sectionStart >= 0 && this.length > this.sectionStart) {
      this.sections.push({ headingPath: this.headings.map((h) => h.text), start: this.sectionStart, end: this.length })
    }
    this.sectionStart = -1
  }
}
