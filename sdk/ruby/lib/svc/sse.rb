# frozen_string_literal: true

module Svc
  # Server-Sent Events, parsed per the HTML standard's rules: `event:`, `data:` (several lines joined
  # with "\n"), `id:`, `retry:`; lines starting with ":" are comments (the server's `: ping` heartbeats);
  # a blank line ends an event; LF, CRLF and CR all end a line.
  module SSE
    # One event: `event` (its name; "message" when the server gave none), `data` (JSON-parsed when it
    # parses, else the text), `id` (the last event id seen, for Last-Event-ID), `retry` (ms, when given)
    # and `raw_data` (the text as received). Reads like a Hash too: `event[:data]`, `event['event']`.
    Event = Struct.new(:event, :data, :id, :retry, :raw_data, keyword_init: true) do
      # The server's final `error` event: the work failed after the stream started; `data` is the problem.
      def error?
        event == 'error'
      end
    end

    # Feed it bytes as they arrive; it yields every complete event.
    class Parser
      BOM = "\xEF\xBB\xBF".b.freeze

      attr_reader :last_event_id

      def initialize
        @buffer = +''.b
        @started = false
        @last_event_id = nil
        reset
      end

      # Parse a chunk (any size, split anywhere); yields each event it completes.
      def feed(chunk, &block)
        @buffer << chunk.to_s.b
        unless @started
          return if @buffer.bytesize < BOM.bytesize && BOM.start_with?(@buffer)

          @buffer = @buffer.byteslice(BOM.bytesize..) if @buffer.start_with?(BOM)
          @started = true
        end
        while (line = next_line(final: false))
          process(line, &block)
        end
      end

      # The stream ended: a last line without its line break still counts; an event never closed by a
      # blank line is dropped, as the standard says.
      def finish(&block)
        while (line = next_line(final: true))
          process(line, &block)
        end
        reset
        nil
      end

      # Every event of a whole text at once.
      def self.parse(text)
        events = []
        parser = new
        parser.feed(text) { |e| events << e }
        parser.finish { |e| events << e }
        events
      end

      private

      def reset
        @event = nil
        @data = nil
        @retry = nil
      end

      def next_line(final:)
        index = @buffer.index(/[\r\n]/n)
        if index.nil?
          return nil if !final || @buffer.empty?

          line = @buffer
          @buffer = +''.b
          return line.force_encoding(Encoding::UTF_8)
        end
        length = 1
        if @buffer.getbyte(index) == 13
          # A CR at the very end may be the first half of a CRLF split between two chunks.
          return nil if index == @buffer.bytesize - 1 && !final

          length = 2 if @buffer.getbyte(index + 1) == 10
        end
        line = @buffer.byteslice(0, index)
        @buffer = @buffer.byteslice((index + length)..) || +''.b
        line.force_encoding(Encoding::UTF_8)
      end

      def process(line)
        if line.empty?
          dispatch { |e| yield e }
          return
        end
        return if line.start_with?(':')

        field, value = line.split(':', 2)
        value = value.nil? ? '' : value.delete_prefix(' ')
        case field
        when 'event' then @event = value
        when 'data' then (@data ||= []) << value
        when 'id' then @last_event_id = value unless value.include?("\0")
        when 'retry' then @retry = Integer(value, 10) if value.match?(/\A\d+\z/)
        end
      end

      def dispatch
        if @data.nil?
          reset
          return
        end
        raw = @data.join("\n")
        event = Event.new(event: @event.nil? || @event.empty? ? 'message' : @event, data: decode(raw), id: @last_event_id, retry: @retry, raw_data: raw)
        reset
        yield event
      end

      def decode(raw)
        JSON.parse(raw, object_class: SvcObject)
      rescue JSON::ParserError
        raw
      end
    end
  end
end
