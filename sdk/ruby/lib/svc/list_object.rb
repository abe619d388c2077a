# frozen_string_literal: true

module Svc
  # One page of a list: `{ "object" => "list", "data" => [...], "has_more" => ..., "next_cursor" => ... }`.
  #
  #   page = client.leads.list(limit: 2)
  #   page.each { |lead| ... }              # this page's items (Enumerable: map, first, to_a …)
  #   page.next_page                         # the following page, or nil
  #   page.auto_paging_each { |lead| ... }   # every item of every page, fetched as needed
  #   client.leads.list(limit: 2).auto_paging_each.lazy.select { ... }.first(3)  # an Enumerator without a block
  #
  # Following pages keep the first call's params and request options and add `cursor: next_cursor`, until
  # `has_more` is false.
  class ListObject
    include Enumerable

    attr_reader :data, :next_cursor, :response, :params

    # fetch: a callable taking the params of another page and answering its ListObject.
    def initialize(body, response: nil, params: {}, fetch: nil)
      @body = body.is_a?(Hash) ? body : {}
      @data = @body['data'].is_a?(Array) ? @body['data'] : []
      @has_more = @body['has_more'] == true
      @next_cursor = @body['next_cursor']
      @response = response
      @params = params
      @fetch = fetch
    end

    # The items of this page only.
    def each(&block)
      return enum_for(:each) { @data.size } unless block

      @data.each(&block)
      self
    end

    def has_more?
      @has_more
    end
    alias has_more has_more?

    def size
      @data.size
    end
    alias length size

    def empty?
      @data.empty?
    end

    # A field of the page as the API sent it (`page['has_more']`, `page[:object]`).
    def [](key)
      @body[key.to_s]
    end

    def to_h
      @body
    end
    alias to_hash to_h

    # The next page (one request), or nil when this is the last.
    def next_page
      return nil unless has_more? && next_cursor && @fetch

      @fetch.call(@params.merge(cursor: next_cursor))
    end

    # Every item of this page and of the pages after it; an Enumerator when no block is given.
    def auto_paging_each(&block)
      return enum_for(:auto_paging_each) unless block

      page = self
      while page
        page.each(&block)
        page = page.next_page
      end
      nil
    end

    def inspect
      "#<Svc::ListObject size=#{size} has_more=#{has_more?} next_cursor=#{next_cursor.inspect}>"
    end
  end
end
