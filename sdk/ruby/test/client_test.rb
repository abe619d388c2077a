# frozen_string_literal: true

require 'test_helper'

# The client's options, without a server.
class ClientUnitTest < Minitest::Test
  def test_base_url_by_key_mode
    assert_equal 'https://api.example.com/v2', Svc::Client.new('svc_live_x').base_url
    assert_equal 'https://api.example.com/sandbox/v2', Svc::Client.new(api_key: 'svc_test_x').base_url
    assert_equal 'http://h:1/v2', Svc::Client.new('svc_live_x', base_url: 'http://h:1/').base_url
    assert_equal 'http://h:1/sandbox/v2', Svc::Client.new('svc_test_x', base_url: 'http://h:1').base_url
    assert_equal 'http://h:1/v2', Svc::Client.new('svc_test_x', base_url: 'http://h:1/v2/').base_url
    assert_equal 'http://h:1/sandbox/v2', Svc::Client.new('svc_live_x', base_url: 'http://h:1/sandbox/v2').base_url
  end

  def test_options_and_inspect_hide_the_key
    c = Svc::Client.new('svc_live_secret', timeout: 5, max_retries: 0, api_version: '2.3.4')
    assert_equal [5, 0, '2.3.4'], [c.timeout, c.max_retries, c.api_version]
    refute_includes c.inspect, 'svc_live_secret'
    refute_includes c.leads.inspect, 'svc_live_secret'
    d = c.with_options(max_retries: 3)
    assert_equal [5, 3, '2.3.4', c.base_url], [d.timeout, d.max_retries, d.api_version, d.base_url]
  end

  def test_query_encoding
    c = Svc::Client.new('svc_live_x', base_url: 'http://h:1/v2')
    url = c.__send__(:build_url, '/leads', { status: %w[new qualified], apply: true, skip: false, cursor: nil, q: 'a b&c', meta: { k: 'v' } })
    assert_equal 'http://h:1/v2/leads?status=new&status=qualified&apply=true&skip=false&q=a+b%26c&meta%5Bk%5D=v', url
    assert_equal '/leads/a%2Fb%20c', c.__send__(:expand_path, '/leads/{id}', ['a/b c'])
    assert_raises(ArgumentError) { c.__send__(:expand_path, '/leads/{id}', [nil]) }
  end

  def test_keywords_split_into_params_and_options
    c = Svc::Client.new('svc_live_x')
    params, options = c.__send__(:split_options, { 'a' => 1 }, { b: 2, timeout: 3, idempotency_key: 'k' })
    assert_equal({ 'a' => 1, b: 2 }, params)
    assert_equal({ timeout: 3, idempotency_key: 'k' }, options)
    assert_equal [nil, {}], c.__send__(:split_options, nil, {})
  end

  def test_error_classes_by_status
    { 400 => Svc::InvalidRequestError, 401 => Svc::AuthenticationError, 403 => Svc::PermissionError, 404 => Svc::NotFoundError,
      409 => Svc::ConflictError, 422 => Svc::ValidationError, 429 => Svc::RateLimitError, 500 => Svc::ServerError,
      503 => Svc::ServerError, 418 => Svc::APIError }.each do |status, klass|
      error = Svc::APIError.from_response(status, { 'x-request-id' => 'req_h' }, '{"code":"c","title":"T","errors":[{"pointer":"/body/x","detail":"bad"}]}')
      assert_instance_of klass, error
      assert_equal ['c', 'req_h', 1], [error.code, error.request_id, error.errors.size]
    end
    assert_equal 'req_b', Svc::APIError.from_response(500, { 'x-request-id' => 'req_h' }, '{"request_id":"req_b"}').request_id
    assert_nil Svc::APIError.from_response(502, {}, '<html>').code
  end

  def test_backoff
    http = Svc::HTTPClient.new
    assert_in_delta 0.4375, http.retry_delay(0), 0.0626
    assert_operator http.retry_delay(10), :<=, 8.0
    assert_equal 1.0, http.retry_delay(0, '1')
    assert_equal 60.0, http.retry_delay(0, '600')
    assert_operator http.retry_delay(0, (Time.now + 5).httpdate), :<=, 5.0
  end

  def test_models_document_the_shapes
    assert_includes Svc::Models::Lead::FIELDS.keys, 'email'
    assert_equal 'list', Svc::Generated::OPERATIONS.fetch('listLeads').ruby_name.split('.').last
  end
end
