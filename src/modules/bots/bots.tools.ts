import type { BuiltinTool } from '../../kernel/tools/tools.js'

/**
 * `handoff_to_human`: the engine asks for a person. The call itself changes nothing; the reply it belongs to
 * applies the bot's hand-off settings (assign or tag) when it is written, in the same transaction as the
 * messages, so a hand-off never happens for a reply that was not recorded.
 */
export function handoffToHumanTool(): BuiltinTool {
  return {
    name: 'handoff_to_human',
    description: 'Hand the conversation to a human colleague: when the customer asks for a person, is upset, or the question needs one.',
    parameters: {
      type: 'object',
      properties: { reason: { type: 'string', maxLength: 300, description: 'Why a human should take over, in a few words.' } },
    },
    async run(_ctx, args) {
      return { handed_off: true, reason: typeof args.reason === 'string' ? args.reason : null }
    },
  }
}
