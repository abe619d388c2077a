# frozen_string_literal: true

module Svc
  # Verifies the signature of a webhook delivery and answers its event.
  #
  #   event = Svc::Webhook.construct_event(request.body.read, request.headers, ENV.fetch('SVC_WEBHOOK_SECRET'))
  #   event['type'] # => "conversation.created"
  #
  # Either header set verifies (names are case-insensitive; Rack's HTTP_* keys work too):
  # - `Svc-Status-Signature: t=<unix>,v1=<hex>[,v1=<hex>…]`: hex HMAC-SHA256 keyed with the whole secret
  #   string ("whsec_…") over "<t>.<raw body>"; valid when any v1 matches.
  # - Standard Webhooks: `webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64>[ v1,<base64>…]`:
  #   base64 HMAC-SHA256 keyed with the base64-decoded part of the secret after "whsec_", over
  #   "<id>.<timestamp>.<raw body>".
  # The timestamp must be within `tolerance` seconds of `now` (either direction; nil turns the check off).
  # Pass the raw body exactly as received: parsing and re-serialising it changes the bytes.
  module Webhook
    DEFAULT_TOLERANCE = 300
    SECRET_PREFIX = 'whsec_'

    module_function

    # `headers`: the request's headers (a Hash, any case, Rack's HTTP_ names too) or the Svc-Status-Signature
    # value alone. The parsed event (a Svc::SvcObject: a Hash with string keys) when a signature verifies; raises
    # Svc::SignatureVerificationError otherwise. `secret` may be an Array (during a rotation: every active
    # secret). `now`: a Time or unix seconds (default: the clock).
    def construct_event(payload, headers, secret, tolerance: DEFAULT_TOLERANCE, now: nil)
      verify(payload, headers, secret, tolerance: tolerance, now: now)
      begin
        JSON.parse(payload.to_s, object_class: SvcObject)
      rescue JSON::ParserError => e
        raise SignatureVerificationError.new("the payload is not JSON: #{e.message}", headers: headers, payload: payload)
      end
    end

    # true when a signature verifies; raises Svc::SignatureVerificationError otherwise.
    def verify(payload, headers, secret, tolerance: DEFAULT_TOLERANCE, now: nil)
      body = payload.to_s.b
      found = normalize_headers(headers)
      secrets = Array(secret).map(&:to_s).reject(&:empty?)
      raise SignatureVerificationError.new('no webhook secret given', headers: headers, payload: payload) if secrets.empty?

      clock = now.nil? ? Time.now.to_i : now.to_i
      failures = []
      if found['svc-status-signature']
        failure = check_svc(found['svc-status-signature'], body, secrets, tolerance, clock)
        return true if failure.nil?

        failures << "Svc-Status-Signature: #{failure}"
      end
      if found['webhook-signature'] || found['webhook-id'] || found['webhook-timestamp']
        failure = check_standard(found, body, secrets, tolerance, clock)
        return true if failure.nil?

        failures << "webhook-signature: #{failure}"
      end
      if failures.empty?
        failures << 'no signature header (Svc-Status-Signature, or webhook-id, webhook-timestamp and webhook-signature)'
      end
      raise SignatureVerificationError.new(failures.join('; '), headers: headers, payload: payload)
    end

    # The headers the server would send for `payload` (both schemes), for tests of your own handler.
    def signature_headers(payload, secret, timestamp: Time.now.to_i, id: "msg_#{SecureRandom.hex(12)}")
      body = payload.to_s.b
      {
        'svc-status-signature' => "t=#{timestamp},v1=#{svc_signature(secret, timestamp, body)}",
        'webhook-id' => id,
        'webhook-timestamp' => timestamp.to_s,
        'webhook-signature' => "v1,#{standard_signature(secret, id, timestamp, body)}",
      }
    end

    # hex(HMAC-SHA256(the whole secret string, "<t>.<body>")).
    def svc_signature(secret, timestamp, body)
      OpenSSL::HMAC.hexdigest('SHA256', secret.to_s.b, "#{timestamp}.".b + body.to_s.b)
    end

    # base64(HMAC-SHA256(base64-decoded secret after "whsec_", "<id>.<t>.<body>")).
    def standard_signature(secret, id, timestamp, body)
      key = secret.to_s.delete_prefix(SECRET_PREFIX).unpack1('m')
      [OpenSSL::HMAC.digest('SHA256', key, "#{id}.#{timestamp}.".b + body.to_s.b)].pack('m0')
    end

    # Constant time for equal lengths (the length itself is no secret: a hex or base64 SHA-256).
    def secure_compare(a, b)
      a = a.to_s.b
      b = b.to_s.b
      return false unless a.bytesize == b.bytesize

      OpenSSL.fixed_length_secure_compare(a, b)
    end

    # Lower-case names; Rack env keys (HTTP_WEBHOOK_ID) and underscores become dashed names; Array values
    # (several headers of one name) are joined as HTTP joins them.
    def normalize_headers(headers)
      # A String is the Svc-Status-Signature value alone (`t=…,v1=…`), as Stripe's construct_event takes it.
      return { 'svc-status-signature' => headers } if headers.is_a?(String)

      out = {}
      (headers || {}).each do |name, value|
        key = name.to_s.downcase.delete_prefix('http_').tr('_', '-')
        out[key] = value.is_a?(Array) ? value.join(key == 'webhook-signature' ? ' ' : ',') : value.to_s
      end
      out
    end

    def check_svc(header, body, secrets, tolerance, clock)
      timestamp = nil
      signatures = []
      header.split(',').each do |part|
        key, value = part.split('=', 2).map { |s| s.to_s.strip }
        case key
        when 't' then timestamp = value
        when 'v1' then signatures << value.downcase
        end
      end
      return 'malformed: expected t=<unix seconds>,v1=<hex>' if timestamp.nil? || !timestamp.match?(/\A\d{1,12}\z/) || signatures.empty?
      return 'timestamp outside the tolerance' unless within_tolerance?(timestamp.to_i, tolerance, clock)

      matched = secrets.any? do |secret|
        expected = svc_signature(secret, timestamp, body)
        signatures.any? { |sig| secure_compare(expected, sig) }
      end
      matched ? nil : 'no signature matches the payload and secret'
    end

    def check_standard(found, body, secrets, tolerance, clock)
      id = found['webhook-id']
      timestamp = found['webhook-timestamp']
      header = found['webhook-signature']
      return 'webhook-id, webhook-timestamp and webhook-signature are all needed' if [id, timestamp, header].any? { |v| v.nil? || v.empty? }
      return 'malformed webhook-timestamp' unless timestamp.strip.match?(/\A\d{1,12}\z/)
      return 'timestamp outside the tolerance' unless within_tolerance?(timestamp.to_i, tolerance, clock)

      signatures = header.split(' ').filter_map do |entry|
        version, value = entry.split(',', 2)
        value if version == 'v1' && value && !value.empty?
      end
      return 'malformed: expected v1,<base64>' if signatures.empty?

      matched = secrets.any? do |secret|
        expected = standard_signature(secret, id, timestamp.strip, body)
        signatures.any? { |sig| secure_compare(expected, sig) }
      end
      matched ? nil : 'no signature matches the payload and secret'
    end

    def within_tolerance?(timestamp, tolerance, clock)
      return true if tolerance.nil?

      (clock - timestamp).abs <= tolerance
    end

    private_class_method :check_svc, :check_standard, :within_tolerance?
  end
end
