# frozen_string_literal: true

module Svc
  # The base of every error this library raises.
  class Error < StandardError; end

  # An answer of the API with an error status. The problem body (RFC 9457, `application/problem+json`) is
  # read into the attributes: `status`, `code`, `title`, `detail`, `type`, `instance`, `errors` (the field
  # errors, each a Hash with "pointer" and "detail"), `request_id` (from the body, else the X-Request-ID
  # header), plus the response's `headers` (lower-case names) and raw `body`.
  class APIError < Error
    attr_reader :status, :code, :title, :detail, :type, :instance, :errors, :request_id, :headers, :body, :problem

    def initialize(message = nil, status: nil, code: nil, title: nil, detail: nil, type: nil, instance: nil, errors: nil,
                   request_id: nil, headers: nil, body: nil, problem: nil)
      @status = status
      @code = code
      @title = title
      @detail = detail
      @type = type
      @instance = instance
      @errors = errors || []
      @request_id = request_id
      @headers = headers || {}
      @body = body
      @problem = problem
      super(message || default_message)
    end

    # The error for an HTTP answer: the subclass that fits the status, filled from the problem body.
    def self.from_response(status, headers, body)
      problem = parse_problem(body)
      request_id = problem['request_id'] || headers['x-request-id']
      klass = class_for(status)
      klass.new(
        status: status,
        code: problem['code'],
        title: problem['title'],
        detail: problem['detail'],
        type: problem['type'],
        instance: problem['instance'],
        errors: problem['errors'].is_a?(Array) ? problem['errors'] : [],
        request_id: request_id,
        headers: headers,
        body: body,
        problem: problem.empty? ? nil : problem,
      )
    end

    def self.class_for(status)
      case status
      when 400 then InvalidRequestError
      when 401 then AuthenticationError
      when 403 then PermissionError
      when 404 then NotFoundError
      when 409 then ConflictError
      when 422 then ValidationError
      when 429 then RateLimitError
      when 500..599 then ServerError
      else APIError
      end
    end

    def self.parse_problem(body)
      return {} if body.nil? || body.empty?

      parsed = JSON.parse(body)
      parsed.is_a?(Hash) ? parsed : {}
    rescue JSON::ParserError
      {}
    end
    private_class_method :parse_problem

    private

    def default_message
      text = [title, detail].compact.reject(&:empty?).join(': ')
      text = "HTTP #{status}" if text.empty?
      facts = ["status #{status}"]
      facts << "code #{code}" if code
      facts << "request_id #{request_id}" if request_id
      field_errors = errors.map { |e| e.is_a?(Hash) ? "#{e['pointer']}: #{e['detail']}" : e.to_s }
      facts << "errors: #{field_errors.join('; ')}" unless field_errors.empty?
      "#{text} (#{facts.join(', ')})"
    end
  end

  # 400: the request is malformed.
  class InvalidRequestError < APIError; end
  # 422: the request is well-formed but invalid; `errors` lists the fields.
  class ValidationError < InvalidRequestError; end
  # 401: no key, or a key that is wrong, revoked or expired.
  class AuthenticationError < APIError; end
  # 403: the key lacks the scope, or the plan the feature.
  class PermissionError < APIError; end
  # 404: no such resource (in this workspace and mode).
  class NotFoundError < APIError; end
  # 409: a conflict with the current state (a duplicate, an idempotency key in use…).
  class ConflictError < APIError; end
  # 429: too many requests (retried on its own first, honouring Retry-After).
  class RateLimitError < APIError; end
  # 5xx: the server failed (retried on its own first for 500, 502, 503, 504).
  class ServerError < APIError; end

  # The request never got an answer: the connection was refused, reset or cut (after the retries).
  class ConnectionError < Error
    attr_reader :cause_error

    def initialize(message = nil, cause_error: nil)
      @cause_error = cause_error
      super(message || "could not reach the API#{cause_error ? ": #{cause_error.class}: #{cause_error.message}" : ''}")
    end
  end

  # The request timed out (connect, write or read; after the retries).
  class TimeoutError < ConnectionError; end

  # A webhook whose signature does not verify (wrong secret, altered body, missing header, old timestamp).
  class SignatureVerificationError < Error
    attr_reader :headers, :payload

    def initialize(message, headers: nil, payload: nil)
      @headers = headers
      @payload = payload
      super(message)
    end
  end
end
