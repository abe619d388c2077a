# frozen_string_literal: true

module Svc
  # What the generator knows of one operation (Svc::Generated::OPERATIONS holds them all, by operationId).
  # `ruby_name`: where the client has it (`inbox.conversations.messages.send`).
  Operation = Struct.new(:operation_id, :http_method, :path, :ruby_name, :paginated, :streaming, :file_media_type,
                         :idempotent, :public, keyword_init: true)

  # The base of the generated namespace classes (Svc::Resources::…). A namespace only forwards calls to its
  # client; the generated methods may be named like Object's own (`send`, `clone`, `test`), so nothing
  # here calls them on a resource (the library uses `__send__` / `public_send` where it dispatches).
  class Resource
    def initialize(client)
      @_client = client
    end

    def inspect
      "#<#{self.class.name}>"
    end

    private

    def _call(operation_id, path_args, params, opts, &block)
      @_client.__send__(:call_operation, Svc::Generated::OPERATIONS.fetch(operation_id), path_args, params, opts, &block)
    end
  end
end
