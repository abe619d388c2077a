# frozen_string_literal: true

require 'test_helper'

class SSEParserTest < Minitest::Test
  STREAM = "retry: 1000\n\nid: s:1\nevent: step.started\ndata: {\"step\":1}\n\n: ping\n\n" \
           "id: s:2\nevent: note\ndata: line one\ndata: line two\n\ndata: plain\n\n" \
           "id: s:3\nevent: completed\ndata: {\"dry_run\":{\"status\":\"succeeded\",\"text\":\"Zoë\"}}\n\n"

  def test_parses_events_comments_and_multiline_data
    events = Svc::SSE::Parser.parse(STREAM)
    assert_equal %w[step.started note message completed], events.map(&:event)
    assert_equal({ 'step' => 1 }, events[0].data)
    assert_equal "line one\nline two", events[1].data
    assert_equal 'plain', events[2].data
    assert_equal %w[s:1 s:2 s:2 s:3], events.map(&:id)
    assert_equal 'Zoë', events[3].data['dry_run']['text']
    assert_equal 'completed', events[3][:event]
  end

  def test_any_split_and_any_line_ending_give_the_same_events
    expected = Svc::SSE::Parser.parse(STREAM).map(&:to_h)
    ["\n", "\r\n", "\r"].each do |eol|
      text = STREAM.gsub("\n", eol).b
      [1, 2, 3, 7].each do |size|
        parser = Svc::SSE::Parser.new
        events = []
        text.bytes.each_slice(size) { |slice| parser.feed(slice.pack('C*')) { |e| events << e.to_h } }
        parser.finish { |e| events << e.to_h }
        assert_equal expected, events, "eol #{eol.inspect}, chunks of #{size}"
      end
    end
  end

  def test_an_unterminated_event_is_dropped_and_a_bom_ignored
    events = Svc::SSE::Parser.parse("\xEF\xBB\xBFevent: a\ndata: 1\n\nevent: b\ndata: 2")
    assert_equal [['a', 1]], events.map { |e| [e.event, e.data] }
  end
end

class SSELiveTest < Minitest::Test
  include SvcTest::Live

  def test_dry_run_stream_yields_events_until_completed
    c = client
    agent = c.agents.create(name: "Streamer #{unique}", max_steps: 4)
    events = []
    result = c.agents.dry_run.stream(agent['id'], input: 'Please refund order ord_1') { |event| events << event }
    assert_nil result
    refute_empty events
    assert(events.all? { |e| e.is_a?(Svc::SSE::Event) && e.id })
    last = events.last
    assert_equal 'completed', last.event
    assert_equal 'agent_dry_run', last.data['dry_run']['object']
    assert_equal 200, c.last_response.status
    assert_includes c.last_response.content_type, 'text/event-stream'
  end

  def test_stream_without_a_block_is_an_enumerator
    c = client
    agent = c.agents.create(name: "Streamer #{unique}")
    enum = c.agents.dry_run.stream(agent['id'], { input: 'Hello' })
    assert_kind_of Enumerator, enum
    assert_equal 'completed', enum.to_a.last.event
    # Taking the first event only leaves the stream early.
    refute_nil c.agents.dry_run.stream(agent['id'], input: 'Hello').first
  end

  def test_stream_errors_before_the_first_event_raise
    assert_raises(Svc::NotFoundError) { client(max_retries: 0).agents.dry_run.stream('agt_00000000000000000000000000', input: 'x').to_a }
    assert_raises(Svc::ValidationError) { client(max_retries: 0).agents.dry_run.stream('agt_00000000000000000000000000', {}).to_a }
  end

  def test_the_plain_dry_run_still_works
    c = client
    agent = c.agents.create(name: "Dry #{unique}")
    assert_equal 'agent_dry_run', c.agents.dry_run(agent['id'], input: 'Hello')['object']
  end
end
