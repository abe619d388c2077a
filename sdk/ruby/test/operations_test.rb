# frozen_string_literal: true

require 'test_helper'

# Every operation of the document the live server serves has a method where the fixture says, in Ruby spelling.
class OperationsTest < Minitest::Test
  include SvcTest::Live

  def test_every_operation_has_a_generated_method
    operations = JSON.parse(File.read(ENV.fetch('SVC_OPERATIONS_FIXTURE')))
    refute_empty operations
    # No request is made: the client only has to expose the methods.
    c = Svc::Client.new('svc_live_unused', base_url: 'http://127.0.0.1:9/v2')
    found = 0
    operations.each do |op|
      target = op['namespace'].reduce(c) do |node, segment|
        reader = SvcTest.snake(segment)
        assert node.respond_to?(reader), "#{op['operation_id']}: no namespace #{reader} on #{node.inspect}"
        node.public_send(reader)
      end
      name = SvcTest.snake(op['method_name'])
      assert target.respond_to?(name), "#{op['operation_id']}: no method #{name} on #{target.inspect}"
      # Defined by the generated code, not inherited (Object#send, Object#clone, Kernel#test would answer too).
      owner = target.method(name).owner
      assert owner == target.class || owner == Svc::Generated::ClientMethods, "#{op['operation_id']}: #{name} comes from #{owner}"
      spec = Svc::Generated::OPERATIONS.fetch(op['operation_id'])
      assert_equal [op['http_method'].downcase.to_sym, op['path']], [spec.http_method, spec.path]
      assert_equal [op['paginated'], op['streaming'], op['file_media_type']], [spec.paginated, spec.streaming, spec.file_media_type]
      found += 1
    end
    assert_equal operations.size, found
    assert_equal operations.size, Svc::Generated::OPERATIONS.size
  end

  def test_send_keeps_object_send_reachable
    c = Svc::Client.new('svc_live_unused', base_url: 'http://127.0.0.1:9/v2')
    messages = c.inbox.conversations.messages
    assert_equal Svc::Resources::Inbox::Conversations::Messages, messages.__send__(:class)
    assert_equal 'Svc::Resources::Inbox::Conversations::Messages', messages.public_send(:inspect).delete_prefix('#<').delete_suffix('>')
    # dry_run is both a method (POST /agents/{id}/dry-run) and a namespace (dry_run.stream).
    assert_instance_of Svc::Resources::Agents::DryRun, c.agents.dry_run
  end
end
