# frozen_string_literal: true

require 'test_helper'

# Svc-Api-Version and User-Agent as the server receives them: the public webhook Playground records every
# request's headers, and a conversation's lead_score changes shape with the pinned version.
class VersionTest < Minitest::Test
  include SvcTest::Live

  def captured_headers(c, **opts)
    token = "pg_#{SecureRandom.hex(16)}"
    c.webhooks.playground.capture_post(token, { ping: 1 }, **opts)
    capture = c.webhooks.playground.capture_get(token).find { |x| x['method'] == 'POST' }
    capture.fetch('headers')
  end

  def test_requests_carry_the_version_and_user_agent
    c = client
    headers = captured_headers(c)
    assert_equal Svc::API_VERSION, headers['svc-api-version']
    assert_equal '2.4.0', Svc::API_VERSION
    assert_equal "svc-ruby/#{Svc::VERSION} (ruby #{RUBY_VERSION})", headers['user-agent']
    assert_match(/\A\h{8}-\h{4}-4\h{3}-[89ab]\h{3}-\h{12}\z/, headers['idempotency-key'])
    assert_equal Svc::API_VERSION, c.last_response['svc-api-version']
  end

  def test_a_pinned_version_is_sent
    assert_equal '2.3.4', captured_headers(client(api_version: '2.3.4'))['svc-api-version']
    assert_equal '2.3.4', captured_headers(client, api_version: '2.3.4')['svc-api-version']
    # The server shapes the answer by it: lead_score is a plain number before 2.4.0.
    c = client
    conversation = c.inbox.conversations.create(subject: 'Versioned')
    assert_kind_of Hash, c.inbox.conversations.get(conversation['id'])['lead_score']
    assert_kind_of Numeric, c.inbox.conversations.get(conversation['id'], api_version: '2.3.4')['lead_score']
    assert_kind_of Numeric, client(api_version: '2.3.4').inbox.conversations.get(conversation['id'])['lead_score']
  end

  def test_request_ids_and_extra_headers
    c = client(headers: { 'X-Request-ID' => "rb-#{unique}" })
    c.health.get
    assert c.last_response.request_id.start_with?('rb-')
    c.health.get(headers: { 'x-request-id' => 'rb-per-call' })
    assert_equal 'rb-per-call', c.last_response.request_id
  end
end
