# frozen_string_literal: true

# The official Ruby client of the Conversational Automation Service API (no dependencies beyond the
# standard library). Start with Svc::Client; webhooks: Svc::Webhook.construct_event.
require 'date'
require 'json'
require 'net/http'
require 'openssl'
require 'securerandom'
require 'time'
require 'uri'

require_relative 'svc/version'
require_relative 'svc/svc_object'
require_relative 'svc/errors'
require_relative 'svc/http_client'
require_relative 'svc/list_object'
require_relative 'svc/sse'
require_relative 'svc/webhook'
require_relative 'svc/resource'
require_relative 'svc/generated'
require_relative 'svc/client'
