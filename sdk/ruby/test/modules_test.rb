# frozen_string_literal: true

require 'test_helper'

# Create / read / update / list in every module, against the live server.
class ModulesTest < Minitest::Test
  include SvcTest::Live

  def test_workspaces
    c = client
    current = c.workspaces.current.get
    assert_equal ENV.fetch('SVC_WORKSPACE_ID'), current['id']
    name = "Acme Ruby #{unique}"
    updated = c.workspaces.update(current['id'], name: name)
    assert_equal name, updated['name']
    assert_equal name, c.workspaces.get(current['id'])['name']
  end

  def test_inbox_conversations_messages_and_tags
    c = client
    tag = c.inbox.tags.create(name: "rb-#{unique}", color: '#22c55e')
    assert_equal 'rb-', tag['name'][0, 3]
    assert_includes c.inbox.tags.list(limit: 100).auto_paging_each.map { |t| t['id'] }, tag['id']

    conversation = c.inbox.conversations.create(
      { subject: 'Ruby client', channel: 'chat', tags: [tag['name']], contact: { name: 'Ada', email: "ada-#{unique}@example.com" } },
      idempotency_key: "conv-#{unique}",
    )
    assert_match(/\Aconv_/, conversation['id'])
    assert_equal conversation['id'], c.inbox.conversations.get(conversation['id'])['id']
    updated = c.inbox.conversations.update(conversation['id'], subject: 'Changed', status: 'pending')
    assert_equal %w[Changed pending], [updated['subject'], updated['status']]
    listed = c.inbox.conversations.list(tag: tag['name'], limit: 10)
    assert_instance_of Svc::ListObject, listed
    assert_equal [conversation['id']], listed.map { |x| x['id'] }

    # `send` with a params Hash, and with keywords.
    first = c.inbox.conversations.messages.send(conversation['id'], { content: 'Hello from Ruby' })
    second = c.inbox.conversations.messages.send(conversation['id'], content: 'A private note', private: true)
    assert_equal ['Hello from Ruby', 'A private note'], [first['content'], second['content']]
    ids = c.inbox.conversations.messages.list(conversation['id'], order: 'asc').map { |m| m['id'] }
    assert_includes ids, first['id']
    assert_includes ids, second['id']
  end

  def test_webhook_endpoints
    c = client
    endpoint = c.webhooks.endpoints.create(url: 'https://example.com/hook', event_types: ['webhook.test'], description: 'ruby')
    assert endpoint['secret'].start_with?('whsec_')
    assert_equal 'https://example.com/hook', c.webhooks.endpoints.get(endpoint['id'])['url']
    assert_equal 'changed', c.webhooks.endpoints.update(endpoint['id'], description: 'changed')['description']
    assert_includes c.webhooks.endpoints.list(limit: 100).auto_paging_each.map { |e| e['id'] }, endpoint['id']
    c.webhooks.endpoints.delete(endpoint['id'])
    assert_raises(Svc::NotFoundError) { c.webhooks.endpoints.get(endpoint['id'], max_retries: 0) }
  end

  def test_leads
    c = client
    email = "lead-#{unique}@example.com"
    lead = c.leads.create(name: 'Grace Hopper', email: email, company: 'Navy')
    assert_equal email, c.leads.get(lead['id'])['email']
    assert_equal ['ruby'], c.leads.update(lead['id'], tags: ['ruby'])['tags']
    assert_equal [lead['id']], c.leads.list(email: email).map { |l| l['id'] }
  end

  def test_knowledge
    c = client
    base = c.knowledge.bases.create(name: "Help #{unique}")
    assert_equal base['id'], c.knowledge.bases.get(base['id'])['id']
    assert_equal 'Public articles', c.knowledge.bases.update(base['id'], description: 'Public articles')['description']
    assert_includes c.knowledge.bases.list(limit: 100).auto_paging_each.map { |b| b['id'] }, base['id']
    document = c.knowledge.bases.documents.upload(base['id'], title: 'Refunds', text: 'Refunds reach the original card within 14 days.')
    assert_equal 'Refunds', c.knowledge.documents.get(document['id'])['title']
    result = c.knowledge.search(query: 'How long do refunds take?', knowledge_base_ids: [base['id']])
    assert_kind_of Hash, result
  end

  def test_bots
    c = client
    bot = c.bots.create(name: "Bot #{unique}")
    assert_equal bot['id'], c.bots.get(bot['id'])['id']
    assert_equal 'Be brief.', c.bots.update(bot['id'], instructions: 'Be brief.')['instructions']
    assert_includes c.bots.list(limit: 100).auto_paging_each.map { |b| b['id'] }, bot['id']
  end

  def test_agents
    c = client
    agent = c.agents.create(name: "Agent #{unique}", max_steps: 4)
    assert agent['signing_secret'].start_with?('whsec_')
    assert_equal agent['id'], c.agents.get(agent['id'])['id']
    assert_equal 'Refund what is asked.', c.agents.update(agent['id'], instructions: 'Refund what is asked.')['instructions']
    assert_includes c.agents.list(limit: 100).auto_paging_each.map { |a| a['id'] }, agent['id']
  end

  def test_voice
    c = client
    numbers = c.voice.numbers.list
    calls = c.voice.calls.list(limit: 5)
    assert_instance_of Svc::ListObject, numbers
    assert_instance_of Svc::ListObject, calls
    assert_equal 'list', calls[:object]
  end

  def test_compliance
    c = client
    assert_kind_of Hash, c.compliance.retention.get
    redacted = c.compliance.pii_redaction.redact(text: 'Write to ada@example.com', types: ['email'])
    assert_equal 'Write to [EMAIL]', redacted['items'][0]['redacted']
    c.leads.create(name: 'Audited', email: "audit-#{unique}@example.com")
    audit = c.compliance.audit_log.list(limit: 5, action: 'createLead')
    refute_empty audit.data
  end

  def test_a_file_operation_answers_bytes
    c = client
    evidence = c.compliance.evidence.list.first
    skip 'no compliance evidence yet' unless evidence
    pdf = c.compliance.evidence.download(evidence['id'])
    assert_equal Encoding::ASCII_8BIT, pdf.encoding
    assert pdf.start_with?('%PDF')
    assert_kind_of Hash, c.compliance.evidence.download(evidence['id'], format: 'json')
  end

  def test_health_events_and_root
    c = client
    refute_nil c.health.get['status']
    events = c.events.list
    refute_empty events.data
    assert_equal true, c.get_api_root['livemode']
  end

  def test_sandbox_base_url
    sandbox = Svc::Client.new(ENV.fetch('SVC_TEST_KEY'), base_url: ENV.fetch('SVC_SANDBOX_URL'))
    assert_equal false, sandbox.get_api_root['livemode']
    # The origin alone: a svc_test_ key gets /sandbox/v2 appended.
    origin = Svc::Client.new(ENV.fetch('SVC_TEST_KEY'), base_url: ENV.fetch('SVC_BASE_URL').delete_suffix('/v2'))
    assert_equal ENV.fetch('SVC_SANDBOX_URL'), origin.base_url
    assert origin.sandbox?
    lead = origin.leads.create(name: 'Sandbox lead', email: "sb-#{unique}@example.com")
    assert_raises(Svc::NotFoundError) { client.leads.get(lead['id'], max_retries: 0) }
  end
end
