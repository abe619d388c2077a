# frozen_string_literal: true

module Svc
  # The API client.
  #
  #   client = Svc::Client.new('svc_live_…')                  # or Svc::Client.new(api_key: …); default ENV['SVC_API_KEY']
  #   lead = client.leads.create({ name: 'Ada', email: 'ada@example.com' })
  #   lead['id']; lead.id                                     # responses are Svc::SvcObject: Hashes with string keys, keys as methods too
  #   client.bots.get('bot_…', api_key: 'svc_live_other…')    # any call: its own key and options
  #   client.last_response.request_id                         # the raw answer of this thread's latest call
  #
  # Options (every one also per request, as keywords after the params, except base_url; api_key too):
  # - base_url: the origin (default https://api.example.com); "/v2" is appended for svc_live_ keys and
  #   "/sandbox/v2" for svc_test_ keys, unless the URL already ends with "/v2" (or "/sandbox/v2").
  # - api_version: sent as Svc-Api-Version on every request (default Svc::API_VERSION, the version this
  #   client was generated from).
  # - timeout: seconds, for connecting and for each read and write (default 60).
  # - max_retries: retries of network failures, 429 and 500/502/503/504 (default 2).
  # - headers: extra headers for every request.
  # - proxy: :env (default: http_proxy / https_proxy / no_proxy), nil for none, or a proxy URL.
  # - logger: a Logger for one debug line per attempt (no keys, no bodies).
  class Client
    include Svc::Generated::ClientMethods

    # Keywords of a call that are request options, not params.
    REQUEST_OPTIONS = %i[api_key idempotency_key timeout max_retries api_version headers].freeze
    DEFAULT_TIMEOUT = 60
    DEFAULT_MAX_RETRIES = 2
    USER_AGENT = "svc-ruby/#{Svc::VERSION} (ruby #{RUBY_VERSION})".freeze
    BODYLESS = %w[GET DELETE HEAD].freeze

    attr_reader :base_url, :api_version, :timeout, :max_retries, :default_headers

    def initialize(positional_api_key = nil, api_key: nil, base_url: nil, api_version: nil, timeout: DEFAULT_TIMEOUT,
                   max_retries: DEFAULT_MAX_RETRIES, headers: {}, proxy: :env, logger: nil, sleeper: nil)
      @api_key = api_key || positional_api_key || ENV.fetch('SVC_API_KEY', nil)
      @origin = base_url
      @base_url = self.class.resolve_base_url(base_url, @api_key)
      @api_version = (api_version || Svc::API_VERSION).to_s
      @timeout = timeout
      @max_retries = max_retries
      @default_headers = downcase_keys(headers)
      @proxy = proxy
      @logger = logger
      @sleeper = sleeper
      @http = HTTPClient.new(proxy: proxy, logger: logger, sleeper: sleeper)
      @last_response_key = :"svc_last_response_#{object_id}"
      init_namespaces
    end

    # The base URL requests go to: `base_url` (default origin Svc::DEFAULT_BASE_URL) plus "/v2" for live
    # keys or "/sandbox/v2" for test keys, unless it already ends with "/v2".
    def self.resolve_base_url(base_url, api_key)
      url = (base_url.nil? || base_url.to_s.empty? ? Svc::DEFAULT_BASE_URL : base_url.to_s).sub(%r{/+\z}, '')
      return url if url.end_with?('/v2')

      url + (api_key.to_s.start_with?('svc_test_') ? '/sandbox/v2' : '/v2')
    end

    # A client like this one with some options changed (`client.with_options(max_retries: 0)`).
    def with_options(**overrides)
      self.class.new(
        api_key: overrides.fetch(:api_key, @api_key),
        base_url: overrides.fetch(:base_url, @origin || @base_url),
        api_version: overrides.fetch(:api_version, @api_version),
        timeout: overrides.fetch(:timeout, @timeout),
        max_retries: overrides.fetch(:max_retries, @max_retries),
        headers: overrides.fetch(:headers, @default_headers),
        proxy: overrides.fetch(:proxy, @proxy),
        logger: overrides.fetch(:logger, @logger),
        sleeper: overrides.fetch(:sleeper, @sleeper),
      )
    end

    # Whether the key is a sandbox (svc_test_) key.
    def sandbox?
      @api_key.to_s.start_with?('svc_test_') || @base_url.end_with?('/sandbox/v2')
    end

    # The Svc::Response of the latest call made by this client on the current thread (status, headers,
    # request_id; body unless it was streamed).
    def last_response
      Thread.current.thread_variable_get(@last_response_key)
    end

    # Any request by hand: `client.request(:get, '/leads', { limit: 2 })`. Params are the query for GET
    # and DELETE, else the JSON body; answers the parsed JSON (nil for 204). Same options as every method.
    def request(method, path, params = nil, **opts)
      params, ropts = split_options(params, opts)
      verb = method.to_s.upcase
      query, body = BODYLESS.include?(verb) ? [params, nil] : [nil, params]
      response = send_request(verb, path, query: query, body: body, ropts: ropts, idempotent: verb != 'GET' && verb != 'HEAD')
      decode(response)
    end

    def inspect
      "#<Svc::Client base_url=#{@base_url.inspect} api_version=#{@api_version.inspect}>"
    end

    private

    # Where every generated method ends up.
    def call_operation(operation, path_args, params, opts, &block)
      params, ropts = split_options(params, opts)
      path = expand_path(operation.path, path_args)
      verb = operation.http_method.to_s.upcase
      return stream_events(operation, verb, path, params, ropts, &block) if operation.streaming
      return list_page(path, params, ropts) if operation.paginated

      query, body = BODYLESS.include?(verb) ? [params, nil] : [nil, params]
      accept = operation.file_media_type ? "#{operation.file_media_type}, application/problem+json" : 'application/json'
      decode(send_request(verb, path, query: query, body: body, ropts: ropts, idempotent: operation.idempotent, accept: accept))
    end

    def list_page(path, params, ropts)
      fetch = nil
      fetch = lambda do |page_params|
        response = send_request('GET', path, query: page_params, body: nil, ropts: ropts, idempotent: false)
        ListObject.new(decode(response), response: response, params: page_params, fetch: fetch)
      end
      fetch.call(symbolize(params || {}))
    end

    # An Enumerator of Svc::SSE::Event, or each event given to the block. A connection lost after some
    # events is resumed with Last-Event-ID (the server sends the missed events; the work is not redone).
    def stream_events(operation, verb, path, params, ropts, &block)
      events = Enumerator.new do |yielder|
        run_stream(operation, verb, path, params, ropts) { |event| yielder << event }
      end
      return events unless block

      events.each(&block)
      nil
    end

    def run_stream(operation, verb, path, params, ropts)
      query, body = BODYLESS.include?(verb) ? [params, nil] : [nil, params]
      max_resumes = ropts.fetch(:max_retries, @max_retries)
      idempotency_key = ropts[:idempotency_key]
      idempotency_key ||= SecureRandom.uuid if operation.idempotent
      ropts = ropts.merge(idempotency_key: idempotency_key) if idempotency_key
      last_id = nil
      resumes = 0
      loop do
        parser = SSE::Parser.new
        in_consumer = false
        extra = last_id ? { 'last-event-id' => last_id } : {}
        begin
          send_request(verb, path, query: query, body: body, ropts: ropts, idempotent: false, accept: 'text/event-stream',
                                   extra_headers: extra, stream: true) do |chunk|
            parser.feed(chunk) do |event|
              last_id = event.id if event.id
              in_consumer = true
              yield event
              in_consumer = false
            end
          end
        rescue ConnectionError
          raise if in_consumer || last_id.nil? || resumes >= max_resumes

          @http.wait(@http.retry_delay(resumes))
          resumes += 1
          next
        end
        parser.finish do |event|
          in_consumer = true
          yield event
          in_consumer = false
        end
        return
      end
    end

    # One call (with its retries): the Svc::Response of a 2xx answer; raises the mapped Svc::APIError
    # otherwise, or Svc::ConnectionError.
    def send_request(verb, path, query:, body:, ropts:, idempotent:, accept: 'application/json', extra_headers: {}, stream: false, &on_chunk)
      url = build_url(path, query)
      headers = {
        'accept' => accept,
        'user-agent' => USER_AGENT,
        'svc-api-version' => (ropts[:api_version] || @api_version).to_s,
      }
      api_key = ropts[:api_key] || @api_key
      headers['authorization'] = "Bearer #{api_key}" if api_key && !api_key.empty?
      payload = nil
      unless body.nil?
        if body.is_a?(String)
          payload = body
          headers['content-type'] = 'application/octet-stream'
        else
          payload = JSON.generate(body)
          headers['content-type'] = 'application/json'
        end
      end
      key = ropts[:idempotency_key]
      key ||= SecureRandom.uuid if idempotent && verb != 'GET'
      headers['idempotency-key'] = key.to_s if key
      headers.merge!(@default_headers)
      headers.merge!(downcase_keys(extra_headers))
      headers.merge!(downcase_keys(ropts[:headers] || {}))
      timeout = ropts.fetch(:timeout, @timeout)
      retries = ropts.fetch(:max_retries, @max_retries)
      response =
        if stream
          @http.stream(verb, url, headers: headers, body: payload, timeout: timeout, max_retries: retries, &on_chunk)
        else
          @http.request(verb, url, headers: headers, body: payload, timeout: timeout, max_retries: retries)
        end
      Thread.current.thread_variable_set(@last_response_key, response)
      raise APIError.from_response(response.status, response.headers, response.body.to_s) unless response.success?

      response
    end

    # The answer's body: parsed JSON (Hashes with string keys), nil when empty (204), the text of a text/*
    # answer, else the bytes (a binary String: a recording, a PDF).
    def decode(response)
      body = response.body
      return nil if response.status == 204 || body.nil? || body.empty?
      return JSON.parse(body.dup.force_encoding(Encoding::UTF_8), object_class: SvcObject) if response.json?
      return body.dup.force_encoding(Encoding::UTF_8) if response.content_type.start_with?('text/')

      body.b
    end

    # Keywords that are request options go apart; the other keywords are params (merged into the Hash).
    def split_options(params, opts)
      rest = opts.dup
      ropts = {}
      REQUEST_OPTIONS.each { |name| ropts[name] = rest.delete(name) if rest.key?(name) }
      ropts.compact!
      return [params, ropts] if rest.empty?
      raise ArgumentError, "params is a #{params.class}; unknown keywords #{rest.keys.join(', ')}" unless params.nil? || params.is_a?(Hash)

      [(params || {}).merge(rest), ropts]
    end

    def expand_path(template, path_args)
      args = path_args.dup
      template.gsub(/\{([^}]+)\}/) do
        name = Regexp.last_match(1)
        value = args.shift
        raise ArgumentError, "#{name} is required" if value.nil? || value.to_s.empty?

        escape_segment(value.to_s)
      end
    end

    def escape_segment(value)
      value.b.gsub(/[^A-Za-z0-9\-._~]/n) { |c| format('%%%02X', c.ord) }
    end

    def build_url(path, query)
      url = @base_url + path
      pairs = query_pairs(query || {})
      pairs.empty? ? url : "#{url}?#{URI.encode_www_form(pairs)}"
    end

    # Arrays as repeated keys, booleans as true/false, nil left out, Hashes as key[sub].
    def query_pairs(params, prefix = nil)
      params.each_with_object([]) do |(name, value), out|
        key = prefix ? "#{prefix}[#{name}]" : name.to_s
        case value
        when nil then next
        when Array then value.each { |item| out << [key, query_value(item)] unless item.nil? }
        when Hash then out.concat(query_pairs(value, key))
        else out << [key, query_value(value)]
        end
      end
    end

    def query_value(value)
      case value
      when Time then value.utc.iso8601
      when Date then value.iso8601
      else value.to_s
      end
    end

    def symbolize(hash)
      hash.to_h.transform_keys(&:to_sym)
    end

    def downcase_keys(hash)
      (hash || {}).each_with_object({}) { |(k, v), out| out[k.to_s.downcase] = v.to_s }
    end
  end
end
