# frozen_string_literal: true

# Shared by the tests. The live tests read the SVC_* variables that sdk/ruby/ruby.sdk.test.ts sets from
# sdk/test-support/live-server.ts (the real app on 127.0.0.1, a steerable proxy, a captured webhook) and skip
# without them; the unit tests (SSE parsing, webhook signatures, options) run anywhere.
require 'minitest/autorun'
require 'json'
require 'net/http'
require 'securerandom'
require 'svc'

module SvcTest
  LIVE_VARIABLES = %w[SVC_BASE_URL SVC_API_KEY].freeze

  def self.live?
    LIVE_VARIABLES.all? { |name| ENV[name] && !ENV[name].empty? }
  end

  # Ruby's spelling of the lowerCamel names of the operations fixture (the generator's `snake`).
  def self.snake(name)
    name.gsub(/([a-z0-9])([A-Z])/, '\1_\2').tr('-', '_').downcase
  end

  module Live
    def setup
      super
      skip 'the SVC_* variables are not set: run through sdk/ruby/ruby.sdk.test.ts (it starts the live server)' unless SvcTest.live?
    end

    def client(**options)
      Svc::Client.new(ENV.fetch('SVC_API_KEY'), base_url: ENV.fetch('SVC_BASE_URL'), **options)
    end

    def proxy_client(**options)
      Svc::Client.new(ENV.fetch('SVC_API_KEY'), base_url: ENV.fetch('SVC_PROXY_BASE_URL'), **options)
    end

    def unique
      SecureRandom.hex(6)
    end

    # GET (mode nil) or POST { mode } the proxy's control URL: { "mode", "requests" => [{ method, path, idempotency_key, dropped }] }.
    def proxy_control(mode = nil)
      uri = URI(ENV.fetch('SVC_PROXY_CONTROL_URL'))
      Net::HTTP.start(uri.host, uri.port, nil) do |http|
        response =
          if mode
            http.post(uri.path, JSON.generate(mode: mode), 'content-type' => 'application/json')
          else
            http.get(uri.path)
          end
        JSON.parse(response.body)
      end
    end
  end
end
