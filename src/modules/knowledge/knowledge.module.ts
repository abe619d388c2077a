import { defineModule } from '../../kernel/module.js'
import { CRAWL_ERRORS } from './crawl/crawl.errors.js'
import { KNOWLEDGE_ERRORS } from './knowledge.errors.js'
import { KNOWLEDGE_EVENTS } from './knowledge.events.js'
import { knowledgeMigrations } from './knowledge.migrations.js'
import { knowledgePrivacy } from './knowledge.privacy.js'
import { KnowledgeService, knowledgeUsage } from './knowledge.service.js'
import { searchKnowledgeTool } from './knowledge.tools.js'
import { crawlKnowledgeSource } from './routes/crawl-knowledge-source.route.js'
import { createKnowledgeBase } from './routes/create-knowledge-base.route.js'
import { deleteKnowledgeBase } from './routes/delete-knowledge-base.route.js'
import { deleteKnowledgeDocument } from './routes/delete-knowledge-document.route.js'
import { getKnowledgeBase } from './routes/get-knowledge-base.route.js'
import { getKnowledgeDocument } from './routes/get-knowledge-document.route.js'
import { listKnowledgeBases } from './routes/list-knowledge-bases.route.js'
import { listKnowledgeDocuments } from './routes/list-knowledge-documents.route.js'
import { listKnowledgeGaps } from './routes/list-knowledge-gaps.route.js'
import { searchKnowledge } from './routes/search-knowledge.route.js'
import { updateKnowledgeBase } from './routes/update-knowledge-base.route.js'
import { uploadKnowledgeDocument } from './routes/upload-knowledge-document.route.js'

export const knowledgeModule = defineModule({
  name: 'knowledge',
  errors: { ...KNOWLEDGE_ERRORS, ...CRAWL_ERRORS },
  migrations: knowledgeMigrations,
  routes: [
    listKnowledgeBases,
    createKnowledgeBase,
    getKnowledgeBase,
    updateKnowledgeBase,
    deleteKnowledgeBase,
    listKnowledgeDocuments,
    uploadKnowledgeDocument,
    getKnowledgeDocument,
    deleteKnowledgeDocument,
    searchKnowledge,
    crawlKnowledgeSource,
    listKnowledgeGaps,
  ],
  init(kernel, services) {
    kernel.events.declare(KNOWLEDGE_EVENTS)
    const knowledge = new KnowledgeService(kernel)
    for (const job of knowledge.jobs) kernel.jobs.register(job)
    kernel.tools.registerBuiltin(searchKnowledgeTool(knowledge.search))
    services.knowledge = knowledge
  },
  health: (_kernel, services) => services.knowledge.health(),
  usage: knowledgeUsage,
  privacy: knowledgePrivacy,
})
