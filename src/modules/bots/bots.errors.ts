import { defineErrors, type ErrorSpec } from '../../kernel/errors.js'

/** The bots module's error codes (the kernel keeps only generic ones). */
export const BOTS_ERRORS = defineErrors('bots', {
  // sendBotMessage to a bot that has no published version and no version_id in the body.
  bot_not_published: { status: 409, title: 'Bot not published' },
  // sendBotMessage, publish or a version to an archived bot.
  bot_archived: { status: 409, title: 'Bot archived' },
  // deleteBot of a published bot: archive it first (docs/bots.md "Archive or delete").
  bot_is_live: { status: 409, title: 'Bot is live' },
  // rollbackBotVersion to the live version or a later one (publishBot moves forward).
  not_an_earlier_version: { status: 409, title: 'Not an earlier version' },
  // attachBotTool with a name the bot already has.
  tool_name_taken: { status: 409, title: 'Tool name taken' },
  // knowledge_base_ids naming a base that does not exist in the workspace.
  unknown_knowledge_base: { status: 422, title: 'Unknown knowledge base' },
  // attachBotTool beyond MAX_TOOLS.
  too_many_tools: { status: 422, title: 'Too many tools' },
})

declare module '../../kernel/errors.js' {
  interface ErrorCodes extends Record<keyof typeof BOTS_ERRORS, ErrorSpec> {}
}
