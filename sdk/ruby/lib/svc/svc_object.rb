# frozen_string_literal: true

module Svc
  # A JSON object of the API: a Hash with string keys (`bot['id']`, `bot.to_json`, `bot.is_a?(Hash)`) whose
  # keys are also methods (`bot.id`, `bot.handoff.action`), as Stripe's objects are. Nested objects are
  # SvcObjects too (JSON.parse's object_class). A key that is also a Hash method's name (`count`, `keys`,
  # `values`, `hash`…) is reached with `obj['count']`: the method wins. A missing key raises NoMethodError
  # (nil with `[]`, as any Hash).
  class SvcObject < Hash
    def method_missing(name, *args)
      key = name.to_s
      return self[key] if args.empty? && !block_given? && key?(key)

      super
    end

    def respond_to_missing?(name, include_private = false)
      key?(name.to_s) || super
    end
  end
end
