import type { Config } from '../../config.js'
import type { AiCheck } from './ai.types.js'

/** The openai provider's configuration check: here, not in openai.ts, so health never loads the client. */
export function checkOpenAiConfig(config: Config['ai']): AiCheck {
  if (!config.baseUrl && !config.apiKey) {
    return { status: 'degraded', detail: 'AI_PROVIDER=openai without AI_API_KEY: the default endpoint will refuse requests.' }
  }
  return { status: 'ok' }
}
