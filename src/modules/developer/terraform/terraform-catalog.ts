/**
 * The resource types a Terraform provider for this API manages, and the operations behind each. Only
 * the mapping is written here; attributes, their types and the import id format are read from the
 * served OpenAPI document (terraform-attributes.ts), and a type whose create operation the document
 * lacks (a build without that module) is left out.
 */
export interface TerraformResourceDef {
  /** The resource type, `svc_<noun>`. */
  type: string
  description: string
  operations: {
    create: string
    /** A get by id; null when the provider reads the object from the list. */
    read: string | null
    update: string | null
    /** null: the API cannot delete it; `terraform destroy` only forgets it (documented per type). */
    delete: string | null
    list: string
  }
  /** The field `terraform import` takes (default `id`). */
  importBy?: string
  /** One object per workspace and mode (retention policies): imported by the workspace id. */
  singleton?: boolean
  /** Request flags and report fields that are not part of the object's configuration. */
  exclude?: string[]
  /** Fields whose value names a block in the HCL export, first present wins (default `name`). */
  labelFrom?: string[]
}

export const TERRAFORM_RESOURCES: TerraformResourceDef[] = [
  {
    type: 'svc_bot',
    description: 'A bot: instructions, channels, knowledge bases, handoff and AI settings. Publishing versions stays an API action.',
    operations: { create: 'createBot', read: 'getBot', update: 'updateBot', delete: 'deleteBot', list: 'listBots' },
  },
  {
    type: 'svc_knowledge_base',
    description: 'A knowledge base (its settings; documents are content, uploaded through the API).',
    operations: { create: 'createKnowledgeBase', read: 'getKnowledgeBase', update: 'updateKnowledgeBase', delete: 'deleteKnowledgeBase', list: 'listKnowledgeBases' },
  },
  {
    type: 'svc_agent',
    description: 'An agent with its tools. The API has no delete: destroy disables nothing and only removes it from the state (set status = "disabled" first).',
    operations: { create: 'createAgent', read: 'getAgent', update: 'updateAgent', delete: null, list: 'listAgents' },
  },
  {
    type: 'svc_webhook_endpoint',
    description: 'A webhook endpoint. Its signing secret is a computed, sensitive attribute known only at creation (import leaves it unknown).',
    operations: { create: 'createWebhookEndpoint', read: 'getWebhookEndpoint', update: 'updateWebhookEndpoint', delete: 'deleteWebhookEndpoint', list: 'listWebhookEndpoints' },
    labelFrom: ['description', 'url'],
  },
  {
    type: 'svc_oauth_app',
    description: 'An OAuth app. Addressed by its client_id (updateOAuthApp names the app in its body); the client secret is computed, sensitive and shown only at creation.',
    operations: { create: 'createOAuthApp', read: null, update: 'updateOAuthApp', delete: 'deleteOAuthApp', list: 'listOAuthApps' },
    importBy: 'client_id',
  },
  {
    type: 'svc_voice_number',
    description: 'A provisioned phone number: its routing is updated in place; the country, area code and number force a new one; destroy releases it.',
    operations: { create: 'provisionVoiceNumber', read: 'getVoiceNumber', update: 'updateVoiceNumber', delete: 'releaseVoiceNumber', list: 'listVoiceNumbers' },
    labelFrom: ['friendly_name', 'phone_number'],
  },
  {
    type: 'svc_reply_template',
    description: 'An inbox reply template (create and read only: a change makes a new template).',
    operations: { create: 'createReplyTemplate', read: null, update: null, delete: null, list: 'listReplyTemplates' },
  },
  {
    type: 'svc_tag',
    description: 'An inbox tag (create and read only).',
    operations: { create: 'createInboxTag', read: null, update: null, delete: null, list: 'listInboxTags' },
  },
  {
    type: 'svc_retention_policy',
    description: 'The retention policies of the workspace and mode: one object, created and updated by the same PATCH; destroy leaves them as they are.',
    operations: { create: 'updateRetentionPolicies', read: 'getRetentionPolicies', update: 'updateRetentionPolicies', delete: null, list: 'getRetentionPolicies' },
    singleton: true,
    exclude: ['dry_run', 'classes', 'last_run'],
  },
]
