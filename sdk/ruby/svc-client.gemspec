# frozen_string_literal: true

require_relative 'lib/svc/version'

Gem::Specification.new do |spec|
  spec.name = 'svc-client'
  spec.version = Svc::VERSION
  spec.summary = 'Official Ruby client of the Conversational Automation Service API'
  spec.description = 'Generated from the OpenAPI document (API ' + Svc::API_VERSION + '): every operation as a method, ' \
                     'retries with idempotency keys, typed errors, pagination, Server-Sent Events and webhook signature checks. ' \
                     'No dependencies beyond the standard library.'
  spec.authors = ['Conversational Automation Service']
  spec.license = 'Nonstandard'
  spec.homepage = 'https://api.example.com/v2/api-docs'
  spec.required_ruby_version = '>= 3.0'
  spec.files = Dir['lib/**/*.rb', 'README.md', 'CHANGELOG.md', 'svc-client.gemspec'].sort
  spec.require_paths = ['lib']
  spec.metadata = { 'rubygems_mfa_required' => 'true' }
end
