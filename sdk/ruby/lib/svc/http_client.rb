# frozen_string_literal: true

module Svc
  # One HTTP answer: `status`, `headers` (a Hash with lower-case names; repeated headers joined with ", "),
  # the raw `body` (nil for a streamed answer) and the `request_id` (X-Request-ID). `client.last_response`
  # is the latest one of the current thread.
  class Response
    attr_reader :status, :headers, :body, :http_method, :url, :attempts

    def initialize(status:, headers:, body:, http_method:, url:, attempts: 1)
      @status = status
      @headers = headers
      @body = body
      @http_method = http_method
      @url = url
      @attempts = attempts
    end

    # A header by name, case-insensitive.
    def [](name)
      @headers[name.to_s.downcase]
    end
    alias header []

    def request_id
      self['x-request-id']
    end

    def success?
      status.between?(200, 299)
    end

    def content_type
      self['content-type'].to_s
    end

    def json?
      content_type.match?(%r{\Aapplication/([a-z0-9.+-]+\+)?json}i)
    end

    def inspect
      "#<Svc::Response #{http_method} #{url} status=#{status} request_id=#{request_id.inspect}>"
    end
  end

  # Net::HTTP with retries: network failures (refused, reset, cut, timed out) and 429, 500, 502, 503, 504
  # are retried up to `max_retries` times with exponential backoff (0.5 s × 2^n, at most 8 s, with jitter),
  # or after `Retry-After` seconds when the answer says so (at most 60 s). The caller sends the same
  # Idempotency-Key on every attempt, so the server does the work once.
  class HTTPClient
    RETRY_STATUSES = [429, 500, 502, 503, 504].freeze
    INITIAL_BACKOFF = 0.5
    MAX_BACKOFF = 8.0
    MAX_RETRY_AFTER = 60.0

    TIMEOUT_ERRORS = [Net::OpenTimeout, Net::ReadTimeout, Net::WriteTimeout, Timeout::Error, Errno::ETIMEDOUT].freeze
    NETWORK_ERRORS = (TIMEOUT_ERRORS + [
      EOFError, IOError, SocketError, Errno::ECONNREFUSED, Errno::ECONNRESET, Errno::ECONNABORTED, Errno::EPIPE,
      Errno::EHOSTUNREACH, Errno::ENETUNREACH, Errno::EADDRNOTAVAIL, OpenSSL::SSL::SSLError, Net::HTTPBadResponse,
    ]).freeze

    attr_reader :logger

    # proxy: :env (the http_proxy/https_proxy/no_proxy variables), nil (none) or a URL string.
    # sleeper: what waits between attempts (tests replace it).
    def initialize(proxy: :env, logger: nil, sleeper: nil)
      @proxy = proxy
      @logger = logger
      @sleeper = sleeper || ->(seconds) { sleep(seconds) }
    end

    # One call, retried as described above. Answers the final Svc::Response whatever its status (the
    # caller maps errors); raises Svc::ConnectionError / Svc::TimeoutError when no answer came.
    def request(method, url, headers: {}, body: nil, timeout: 60, max_retries: 2)
      with_retries(method, url, max_retries) do |attempt|
        perform(method, url, headers, body, timeout, attempt)
      end
    end

    # Like #request, but a successful (2xx) answer's body is yielded chunk by chunk as it arrives (the
    # answer's `body` is then nil). Retries happen only before the first chunk; a connection lost later
    # raises Svc::ConnectionError.
    def stream(method, url, headers: {}, body: nil, timeout: 60, max_retries: 2, &on_chunk)
      with_retries(method, url, max_retries) do |attempt|
        perform(method, url, headers, body, timeout, attempt, &on_chunk)
      end
    end

    # Seconds to wait before retry number `attempt` (0-based): Retry-After when given, else the backoff.
    def retry_delay(attempt, retry_after = nil)
      seconds = parse_retry_after(retry_after)
      return [seconds, MAX_RETRY_AFTER].min if seconds

      base = [INITIAL_BACKOFF * (2**attempt), MAX_BACKOFF].min
      base * (1 - (rand * 0.25))
    end

    # Waits `seconds` (through the sleeper).
    def wait(seconds)
      @sleeper.call(seconds) if seconds.positive?
    end

    private

    # A failure after part of a streamed answer reached the caller: not retried here.
    class MidStreamError < StandardError
      attr_reader :original

      def initialize(original)
        @original = original
        super(original.message)
      end
    end
    private_constant :MidStreamError

    # An error raised by the code that consumes a streamed answer: never retried, re-raised unchanged.
    class CallerError < StandardError
      attr_reader :original

      def initialize(original)
        @original = original
        super(original.message)
      end
    end
    private_constant :CallerError

    def with_retries(method, url, max_retries)
      attempt = 0
      loop do
        begin
          response = yield(attempt)
        rescue CallerError => e
          raise e.original
        rescue MidStreamError => e
          raise wrap_network_error(e.original)
        rescue *NETWORK_ERRORS => e
          log { "#{method} #{url} failed: #{e.class}: #{e.message} (attempt #{attempt + 1})" }
          raise wrap_network_error(e) if attempt >= max_retries

          wait(retry_delay(attempt))
          attempt += 1
          next
        end
        log { "#{method} #{url} -> #{response.status} (attempt #{attempt + 1})" }
        if RETRY_STATUSES.include?(response.status) && attempt < max_retries
          wait(retry_delay(attempt, response['retry-after']))
          attempt += 1
          next
        end
        return response
      end
    end

    def perform(method, url, headers, body, timeout, attempt)
      uri = URI(url)
      http = build_http(uri, timeout)
      request = Net::HTTPGenericRequest.new(method.to_s.upcase, !body.nil?, method.to_s.upcase != 'HEAD', uri.request_uri, headers)
      request.body = body unless body.nil?
      result = nil
      delivered = false
      http.start do |conn|
        conn.request(request) do |res|
          response_headers = {}
          res.each_header { |name, value| response_headers[name.downcase] = value }
          status = res.code.to_i
          if block_given? && status.between?(200, 299)
            begin
              res.read_body do |chunk|
                delivered = true
                begin
                  yield chunk
                rescue StandardError => e
                  raise CallerError, e # the caller's own error, not the connection's: passed on as it is
                end
              end
            rescue *NETWORK_ERRORS => e
              # Raised by the connection after the caller got part of the answer: not retryable here.
              raise MidStreamError, e if delivered

              raise
            end
            result = Response.new(status: status, headers: response_headers, body: nil, http_method: method.to_s.upcase, url: url, attempts: attempt + 1)
          else
            raw = res.read_body
            result = Response.new(status: status, headers: response_headers, body: raw, http_method: method.to_s.upcase, url: url, attempts: attempt + 1)
          end
        end
      end
      result
    end

    def build_http(uri, timeout)
      http =
        case @proxy
        when :env then Net::HTTP.new(uri.host, uri.port)
        when nil, false then Net::HTTP.new(uri.host, uri.port, nil)
        else
          proxy = URI(@proxy.to_s)
          Net::HTTP.new(uri.host, uri.port, proxy.host, proxy.port, proxy.user, proxy.password)
        end
      http.use_ssl = uri.scheme == 'https'
      http.open_timeout = timeout
      http.read_timeout = timeout
      http.write_timeout = timeout if http.respond_to?(:write_timeout=)
      # Net::HTTP would retry idempotent verbs once on its own; the retries are ours to count.
      http.max_retries = 0 if http.respond_to?(:max_retries=)
      http
    end

    def wrap_network_error(error)
      klass = TIMEOUT_ERRORS.any? { |k| error.is_a?(k) } ? Svc::TimeoutError : Svc::ConnectionError
      klass.new(nil, cause_error: error)
    end

    def parse_retry_after(value)
      return nil if value.nil? || value.to_s.strip.empty?

      text = value.to_s.strip
      return [Float(text), 0.0].max if text.match?(/\A\d+(\.\d+)?\z/)

      [Time.httpdate(text) - Time.now, 0.0].max
    rescue ArgumentError
      nil
    end

    def log
      @logger&.debug("[svc] #{yield}")
    end
  end
end
