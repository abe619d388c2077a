import { aiEngineFor, type AiEngine } from '../../kernel/ai/ai.js'
import type { Kernel } from '../../kernel/kernel.js'

/** The engine a bot's AI settings name (null: the service's AI_PROVIDER). */
export const engineFor = (k: Kernel, provider: 'builtin' | 'openai' | null): AiEngine => aiEngineFor(k, provider)
