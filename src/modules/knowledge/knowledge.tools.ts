import type { BuiltinTool } from '../../kernel/tools/tools.js'
import type { KnowledgeSearchService } from './knowledge-search.service.js'

/**
 * `search_knowledge`, the built-in tool bots and agents attach to look something up mid-turn. It searches
 * the knowledge bases the caller passes in the tool context (`knowledgeBaseIds`: a bot's or an agent's
 * own), never the whole workspace, and returns passages with their citations.
 */
export function searchKnowledgeTool(search: KnowledgeSearchService): BuiltinTool {
  return {
    name: 'search_knowledge',
    description: 'Search the knowledge base for passages that answer a question; returns the best passages with their sources.',
    parameters: {
      type: 'object',
      properties: {
        query: { type: 'string', minLength: 1, maxLength: 500, description: 'What to look up, in a few words.' },
        top_k: { type: 'integer', minimum: 1, maximum: 10, description: 'How many passages (default 3).' },
      },
      required: ['query'],
    },
    async run(ctx, args) {
      const ids = Array.isArray(ctx.knowledgeBaseIds) ? (ctx.knowledgeBaseIds as string[]) : []
      if (ids.length === 0) return { passages: [] }
      const passages = await search.passages(ctx.tenant, String(args.query), { knowledgeBaseIds: ids, topK: typeof args.top_k === 'number' ? args.top_k : 3 })
      return { passages }
    },
  }
}
