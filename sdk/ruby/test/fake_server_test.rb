# frozen_string_literal: true

require 'test_helper'
require 'socket'

# The runtime against a scripted server on 127.0.0.1 (no live server needed): retries, the idempotency key,
# and an event stream resumed with Last-Event-ID after the connection is cut.
class FakeServerTest < Minitest::Test
  Request = Struct.new(:method, :path, :headers, :body)

  # Each connection is answered by the next handler: handler.(request, socket) writes the raw answer.
  def serve(*handlers)
    server = TCPServer.new('127.0.0.1', 0)
    seen = []
    thread = Thread.new do
      handlers.each do |handler|
        socket = server.accept
        line = socket.gets.to_s
        headers = {}
        while (h = socket.gets) && h != "\r\n"
          name, value = h.split(':', 2)
          headers[name.downcase] = value.strip
        end
        body = headers['content-length'] ? socket.read(headers['content-length'].to_i) : nil
        method, path = line.split(' ')
        request = Request.new(method, path, headers, body)
        seen << request
        handler.call(request, socket)
        socket.close unless socket.closed?
      end
    end
    yield "http://127.0.0.1:#{server.addr[1]}/v2", seen
  ensure
    thread&.kill
    server&.close
  end

  def json(status, body, extra = {})
    text = JSON.generate(body)
    headers = { 'content-type' => 'application/json', 'content-length' => text.bytesize, 'x-request-id' => 'req_fake', 'connection' => 'close' }.merge(extra)
    "HTTP/1.1 #{status} X\r\n#{headers.map { |k, v| "#{k}: #{v}" }.join("\r\n")}\r\n\r\n#{text}"
  end

  def test_retries_503_and_a_cut_connection_with_one_idempotency_key
    sleeps = []
    cut = ->(_req, socket) { socket.close }
    unavailable = ->(_req, socket) { socket.write(json(503, { title: 'Down', status: 503, code: 'unavailable' })) }
    created = ->(req, socket) { socket.write(json(201, { id: 'lead_1', echo: JSON.parse(req.body) })) }
    serve(cut, unavailable, created) do |base, seen|
      c = Svc::Client.new('svc_live_k', base_url: base, sleeper: ->(s) { sleeps << s })
      lead = c.leads.create(name: 'Ada')
      assert_equal({ 'id' => 'lead_1', 'echo' => { 'name' => 'Ada' } }, lead)
      assert_equal 3, seen.size
      assert_equal 1, seen.map { |r| r.headers['idempotency-key'] }.uniq.size
      assert_equal ['Bearer svc_live_k'], seen.map { |r| r.headers['authorization'] }.uniq
      assert_equal 2, sleeps.size
      assert_operator sleeps[0], :<=, 0.5
      assert_operator sleeps[1], :<=, 1.0
      assert_equal 3, c.last_response.attempts
    end
  end

  def test_gives_up_after_max_retries_with_the_last_error
    unavailable = ->(_req, socket) { socket.write(json(503, { title: 'Down', status: 503, code: 'unavailable' })) }
    serve(unavailable, unavailable) do |base, seen|
      c = Svc::Client.new('svc_live_k', base_url: base, max_retries: 1, sleeper: ->(_) {})
      error = assert_raises(Svc::ServerError) { c.health.get }
      assert_equal ['unavailable', 'req_fake', 2], [error.code, error.request_id, seen.size]
    end
  end

  def test_a_read_timeout_is_a_timeout_error
    silent = ->(_req, _socket) { sleep 1.5 }
    serve(silent) do |base, _seen|
      c = Svc::Client.new('svc_live_k', base_url: base, max_retries: 0, timeout: 0.3)
      assert_raises(Svc::TimeoutError) { c.health.get }
    end
  end

  def test_a_cut_stream_resumes_with_last_event_id
    first = lambda do |_req, socket|
      socket.write("HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n")
      chunk = "id: s:1\nevent: step.started\ndata: {\"n\":1}\n\n"
      socket.write("#{chunk.bytesize.to_s(16)}\r\n#{chunk}\r\n")
      socket.flush
      sleep 0.1
      socket.close # cut: no last chunk
    end
    rest = lambda do |req, socket|
      chunk = "id: s:2\nevent: completed\ndata: {\"n\":2,\"resumed_from\":\"#{req.headers['last-event-id']}\"}\n\n"
      socket.write("HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncontent-length: #{chunk.bytesize}\r\nconnection: close\r\n\r\n#{chunk}")
    end
    serve(first, rest) do |base, seen|
      c = Svc::Client.new('svc_live_k', base_url: base, sleeper: ->(_) {})
      events = c.agents.dry_run.stream('agt_1', input: 'x').to_a
      assert_equal %w[step.started completed], events.map(&:event)
      assert_equal 's:1', events.last.data['resumed_from']
      assert_equal %w[text/event-stream text/event-stream], seen.map { |r| r.headers['accept'] }
      assert_equal '/v2/agents/agt_1/dry-run/stream', seen.last.path
    end
  end

  def test_204_is_nil_and_binary_is_bytes
    empty = ->(_req, socket) { socket.write("HTTP/1.1 204 No Content\r\nconnection: close\r\n\r\n") }
    wav = lambda do |_req, socket|
      bytes = "RIFF\x00\xFF".b
      socket.write("HTTP/1.1 200 OK\r\ncontent-type: audio/wav\r\ncontent-length: #{bytes.bytesize}\r\nconnection: close\r\n\r\n".b + bytes)
    end
    serve(empty, wav) do |base, seen|
      c = Svc::Client.new('svc_live_k', base_url: base)
      assert_nil c.leads.delete('lead_1')
      audio = c.voice.calls.recording.get('call_1')
      assert_equal "RIFF\x00\xFF".b, audio
      assert_equal 'DELETE', seen[0].method
      assert seen[0].headers['idempotency-key']
      assert_match %r{\Aaudio/wav}, seen[1].headers['accept']
    end
  end
end
