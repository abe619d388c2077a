/** Our ids are `prefix_ULID`; anything else cannot exist, so it is not found without asking the database. */
export const isWellFormedId = (id: string): boolean => /^[a-z]{2,5}_[0-9A-Za-z]{1,40}$/.test(id)

/** Characters of a conversation's `last_message.preview`. */
export const PREVIEW_LENGTH = 140
