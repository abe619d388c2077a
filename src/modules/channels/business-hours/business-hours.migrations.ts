import type { ModuleMigration } from '../../../kernel/db/migrations.js'

export const businessHoursMigrations: ModuleMigration[] = [
  {
    // Issue 33: business hours and the out-of-hours reply. The schedule is one JSON column (read with the
    // channel, never queried by); a conversation remembers when it last got the reply, so a customer
    // writing five times at night gets it once.
    name: '202701020001_channels_business_hours',
    async up(db) {
      await db.schema.alterTable('channels').addColumn('business_hours', 'text').execute()
      await db.schema.alterTable('channel_conversations').addColumn('out_of_hours_reply_at', 'text').execute()
    },
  },
]
