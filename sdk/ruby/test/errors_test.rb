# frozen_string_literal: true

require 'test_helper'

class ErrorsTest < Minitest::Test
  include SvcTest::Live

  def test_404_is_a_not_found_error
    error = assert_raises(Svc::NotFoundError) { client(max_retries: 0).inbox.conversations.get('conv_00000000000000000000000000') }
    assert_kind_of Svc::APIError, error
    assert_kind_of Svc::Error, error
    assert_equal 404, error.status
    assert_equal 'resource_not_found', error.code
    assert error.request_id.start_with?('req_'), error.request_id
    assert_equal error.request_id, error.headers['x-request-id']
    refute_nil error.title
    refute_nil error.detail
    assert_includes error.message, 'resource_not_found'
    assert_equal 'resource_not_found', JSON.parse(error.body)['code']
  end

  def test_422_is_a_validation_error_with_field_errors
    error = assert_raises(Svc::ValidationError) { client(max_retries: 0).inbox.tags.create({}) }
    assert_kind_of Svc::InvalidRequestError, error
    assert_equal 422, error.status
    refute_empty error.errors
    assert(error.errors.all? { |e| e['pointer'] && e['detail'] })
    assert(error.errors.any? { |e| e['pointer'].include?('name') })
  end

  def test_401_is_an_authentication_error
    bad = Svc::Client.new('svc_live_nope', base_url: ENV.fetch('SVC_BASE_URL'), max_retries: 0)
    error = assert_raises(Svc::AuthenticationError) { bad.leads.list }
    assert_equal 401, error.status
    assert error.request_id.start_with?('req_')
  end

  def test_409_is_a_conflict_error
    c = client(max_retries: 0)
    name = "dup-#{unique}"
    c.inbox.tags.create(name: name)
    error = assert_raises(Svc::ConflictError) { c.inbox.tags.create(name: name) }
    assert_equal 'tag_already_exists', error.code
  end
end
