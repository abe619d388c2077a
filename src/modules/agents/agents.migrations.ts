import type { ModuleMigration } from '../../kernel/db/migrations.js'

export const agentsMigrations: ModuleMigration[] = [
  {
    name: '202611260200_agents',
    async up(db) {
      await db.schema
        .createTable('agents')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('instructions', 'text', (c) => c.notNull())
        .addColumn('tools', 'text', (c) => c.notNull())
        .addColumn('knowledge_base_ids', 'text', (c) => c.notNull())
        .addColumn('input_schema', 'text')
        .addColumn('max_steps', 'integer', (c) => c.notNull())
        .addColumn('run_timeout_seconds', 'integer', (c) => c.notNull())
        .addColumn('approval_timeout_seconds', 'integer', (c) => c.notNull())
        .addColumn('ai', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('signing_secret_sealed', 'text', (c) => c.notNull())
        .addColumn('metadata', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute()
      await db.schema.createIndex('agents_tenant').on('agents').columns(['workspace_id', 'mode', 'id']).execute()

      await db.schema
        .createTable('agent_runs')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('agent_id', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('input', 'text', (c) => c.notNull())
        .addColumn('conversation_id', 'text')
        .addColumn('metadata', 'text', (c) => c.notNull())
        .addColumn('agent_snapshot', 'text', (c) => c.notNull())
        .addColumn('output', 'text')
        .addColumn('error', 'text')
        .addColumn('step_count', 'integer', (c) => c.notNull())
        .addColumn('tool_call_count', 'integer', (c) => c.notNull())
        .addColumn('prompt_tokens', 'integer', (c) => c.notNull())
        .addColumn('completion_tokens', 'integer', (c) => c.notNull())
        .addColumn('worker_id', 'text')
        .addColumn('lease_until', 'text')
        .addColumn('deadline_at', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('started_at', 'text')
        .addColumn('finished_at', 'text')
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute()
      // An agent's runs, newest first, optionally by status; usage per day.
      await db.schema.createIndex('agent_runs_agent').on('agent_runs').columns(['workspace_id', 'mode', 'agent_id', 'id']).execute()
      await db.schema.createIndex('agent_runs_created').on('agent_runs').columns(['workspace_id', 'mode', 'created_at']).execute()

      await db.schema
        .createTable('agent_run_steps')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('run_id', 'text', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('tool', 'text')
        .addColumn('call_id', 'text')
        .addColumn('arguments', 'text')
        .addColumn('result', 'text')
        .addColumn('idempotency_key', 'text')
        .addColumn('approval_id', 'text')
        .addColumn('text', 'text')
        .addColumn('started_at', 'text', (c) => c.notNull())
        .addColumn('completed_at', 'text')
        .execute()
      // One position per run: two writers of one run cannot both append step n.
      await db.schema.createIndex('agent_run_steps_position').on('agent_run_steps').columns(['run_id', 'position']).unique().execute()
      await db.schema.createIndex('agent_run_steps_created').on('agent_run_steps').columns(['workspace_id', 'mode', 'started_at']).execute()

      await db.schema
        .createTable('agent_approvals')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('agent_id', 'text', (c) => c.notNull())
        .addColumn('run_id', 'text', (c) => c.notNull())
        .addColumn('step_id', 'text', (c) => c.notNull())
        .addColumn('tool', 'text', (c) => c.notNull())
        .addColumn('call_id', 'text', (c) => c.notNull())
        .addColumn('arguments', 'text', (c) => c.notNull())
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('comment', 'text')
        .addColumn('edited_arguments', 'text')
        .addColumn('decided_by', 'text')
        .addColumn('decided_at', 'text')
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute()
      await db.schema.createIndex('agent_approvals_agent').on('agent_approvals').columns(['workspace_id', 'mode', 'agent_id', 'status', 'id']).execute()
      await db.schema.createIndex('agent_approvals_run').on('agent_approvals').columns(['run_id', 'status']).execute()
    },
  },
  {
    // A deleted conversation's runs go with it (agents-conversation-deleted.ts): found by this index, not a scan.
    name: '202701171000_agents_run_conversation',
    async up(db) {
      await db.schema.createIndex('agent_runs_conversation').on('agent_runs').columns(['workspace_id', 'mode', 'conversation_id']).execute()
    },
  },
]
