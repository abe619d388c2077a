# frozen_string_literal: true

require 'test_helper'

# Svc::Webhook against a real delivery captured from the server (live), and on its own (unit).
class WebhookLiveTest < Minitest::Test
  include SvcTest::Live

  def setup
    super
    fixture = JSON.parse(File.read(ENV.fetch('SVC_WEBHOOK_FIXTURE')))
    @secret = fixture.fetch('secret')
    @body = fixture.fetch('body')
    @headers = fixture.fetch('headers')
    @tolerance = fixture.fetch('tolerance_seconds')
    @t = @headers.fetch('webhook-timestamp').to_i
  end

  def standard_only
    @headers.slice('webhook-id', 'webhook-timestamp', 'webhook-signature')
  end

  def svc_only
    @headers.slice('svc-status-signature')
  end

  def test_the_real_headers_verify
    event = Svc::Webhook.construct_event(@body, @headers, @secret, tolerance: @tolerance, now: @t + 1)
    assert_equal 'webhook.test', event['type']
    assert_equal JSON.parse(@body), event
  end

  def test_the_real_headers_verify_on_the_real_clock
    age = Time.now.to_i - @t
    skip "the captured delivery is #{age} s old, beyond the tolerance: restart the live server" if age.abs > @tolerance

    assert_equal 'webhook.test', Svc::Webhook.construct_event(@body, @headers, @secret)['type']
  end

  def test_standard_webhooks_headers_alone
    assert_equal 'webhook.test', Svc::Webhook.construct_event(@body, standard_only, @secret, now: @t)['type']
  end

  def test_svc_status_signature_alone
    assert_equal 'webhook.test', Svc::Webhook.construct_event(@body, svc_only, @secret, now: Time.at(@t))['type']
  end

  def test_header_names_are_case_insensitive_and_rack_keys_work
    upper = @headers.to_h { |k, v| [k.upcase, v] }
    rack = @headers.to_h { |k, v| ["HTTP_#{k.upcase.tr('-', '_')}", v] }
    assert Svc::Webhook.verify(@body, upper, @secret, now: @t)
    assert Svc::Webhook.verify(@body, rack, @secret, now: @t)
  end

  def test_one_altered_byte_fails
    altered = @body.dup
    altered.setbyte(10, altered.getbyte(10) ^ 1)
    [@headers, standard_only, svc_only].each do |headers|
      assert_raises(Svc::SignatureVerificationError) { Svc::Webhook.construct_event(altered, headers, @secret, now: @t) }
    end
  end

  def test_a_wrong_secret_fails
    wrong = "whsec_#{['x' * 32].pack('m0')}"
    [@headers, standard_only, svc_only].each do |headers|
      assert_raises(Svc::SignatureVerificationError) { Svc::Webhook.construct_event(@body, headers, wrong, now: @t) }
    end
    # Among several secrets (a rotation), the right one is enough.
    assert Svc::Webhook.verify(@body, @headers, [wrong, @secret], now: @t)
  end

  def test_an_old_or_future_timestamp_fails
    [@headers, standard_only, svc_only].each do |headers|
      error = assert_raises(Svc::SignatureVerificationError) { Svc::Webhook.construct_event(@body, headers, @secret, now: @t + 301) }
      assert_includes error.message, 'tolerance'
      assert_raises(Svc::SignatureVerificationError) { Svc::Webhook.construct_event(@body, headers, @secret, now: @t - 301) }
    end
    assert Svc::Webhook.verify(@body, @headers, @secret, now: @t + 300)
  end
end

class WebhookUnitTest < Minitest::Test
  SECRET = "whsec_#{SecureRandom.random_bytes(32).then { |b| [b].pack('m0') }}"
  BODY = '{"id":"evt_1","type":"lead.created","data":{"object":{"name":"Zoë"}}}'

  def test_signature_headers_round_trip
    headers = Svc::Webhook.signature_headers(BODY, SECRET, timestamp: 1_700_000_000, id: 'msg_1')
    assert_equal 'lead.created', Svc::Webhook.construct_event(BODY, headers, SECRET, now: 1_700_000_000)['type']
    assert_equal 'lead.created', Svc::Webhook.construct_event(BODY, headers.slice('svc-status-signature'), SECRET, now: 1_700_000_000)['type']
    assert_equal 'lead.created', Svc::Webhook.construct_event(BODY, headers.reject { |k, _| k == 'svc-status-signature' }, SECRET, now: 1_700_000_000)['type']
  end

  def test_several_signatures_any_may_match
    headers = Svc::Webhook.signature_headers(BODY, SECRET, timestamp: 1_700_000_000, id: 'msg_1')
    other = Svc::Webhook.signature_headers(BODY, "whsec_#{['y' * 32].pack('m0')}", timestamp: 1_700_000_000, id: 'msg_1')
    svc = "t=1700000000,v1=#{other['svc-status-signature'].split('v1=').last},v1=#{headers['svc-status-signature'].split('v1=').last}"
    standard = "#{other['webhook-signature']} #{headers['webhook-signature']}"
    assert Svc::Webhook.verify(BODY, { 'Svc-Status-Signature' => svc }, SECRET, now: 1_700_000_000)
    assert Svc::Webhook.verify(BODY, headers.merge('webhook-signature' => standard).reject { |k, _| k == 'svc-status-signature' }, SECRET, now: 1_700_000_000)
  end

  def test_missing_or_malformed_headers_fail
    assert_raises(Svc::SignatureVerificationError) { Svc::Webhook.verify(BODY, {}, SECRET) }
    assert_raises(Svc::SignatureVerificationError) { Svc::Webhook.verify(BODY, { 'svc-status-signature' => 'garbage' }, SECRET) }
    assert_raises(Svc::SignatureVerificationError) { Svc::Webhook.verify(BODY, { 'webhook-id' => 'msg_1' }, SECRET) }
    assert_raises(Svc::SignatureVerificationError) { Svc::Webhook.verify(BODY, { 'svc-status-signature' => 't=1,v1=' }, SECRET, tolerance: nil) }
  end

  def test_secure_compare
    assert Svc::Webhook.secure_compare('abc', 'abc')
    refute Svc::Webhook.secure_compare('abc', 'abd')
    refute Svc::Webhook.secure_compare('abc', 'abcd')
  end
end
