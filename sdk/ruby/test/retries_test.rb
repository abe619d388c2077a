# frozen_string_literal: true

require 'test_helper'

# Retries through the steerable proxy: a dropped connection and a 429.
class RetriesTest < Minitest::Test
  include SvcTest::Live

  def test_a_dropped_connection_is_retried_with_the_same_idempotency_key
    before = proxy_control['requests'].size
    proxy_control('drop-next')
    email = "retry-#{unique}@example.com"
    lead = proxy_client.leads.create(name: 'Retried', email: email)
    requests = proxy_control['requests'][before..].select { |r| r['method'] == 'POST' && r['path'] == '/v2/leads' }
    assert_equal 2, requests.size, requests.inspect
    assert_equal [true, false], requests.map { |r| r['dropped'] }
    keys = requests.map { |r| r['idempotency_key'] }.uniq
    assert_equal 1, keys.size
    assert_match(/\A\h{8}-\h{4}-4\h{3}-[89ab]\h{3}-\h{12}\z/, keys.first)
    # The server did the work once: the replay answered the same lead.
    assert_equal [lead['id']], client.leads.list(email: email).map { |l| l['id'] }
  end

  def test_429_waits_for_retry_after
    before = proxy_control['requests'].size
    proxy_control('429-next')
    started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
    c = proxy_client
    root = c.workspaces.current.get
    elapsed = Process.clock_gettime(Process::CLOCK_MONOTONIC) - started
    assert_equal ENV.fetch('SVC_WORKSPACE_ID'), root['id']
    assert_operator elapsed, :>=, 0.9
    assert_equal 2, proxy_control['requests'][before..].size
    assert_equal 2, c.last_response.attempts
  end

  def test_429_without_retries_raises_rate_limit_error
    proxy_control('429-next')
    error = assert_raises(Svc::RateLimitError) { proxy_client(max_retries: 0).workspaces.current.get }
    assert_equal [429, 'rate_limited', 'req_proxy429', '1'], [error.status, error.code, error.request_id, error.headers['retry-after']]
  end

  def test_a_4xx_is_not_retried
    before = proxy_control['requests'].size
    assert_raises(Svc::NotFoundError) { proxy_client.leads.get('lead_00000000000000000000000000') }
    assert_equal 1, proxy_control['requests'][before..].size
  end

  def test_no_server_raises_connection_error
    c = Svc::Client.new(ENV.fetch('SVC_API_KEY'), base_url: 'http://127.0.0.1:1/v2', max_retries: 1, sleeper: ->(_) {})
    error = assert_raises(Svc::ConnectionError) { c.health.get }
    assert_kind_of Errno::ECONNREFUSED, error.cause_error
  end
end
