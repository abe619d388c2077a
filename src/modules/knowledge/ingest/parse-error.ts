/** A file that cannot be read as its format. The message is shown to the user on the failed document. */
export class DocumentParseError extends Error {
  override name = 'DocumentParseError'
}
