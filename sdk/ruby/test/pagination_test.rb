# frozen_string_literal: true

require 'test_helper'

class PaginationTest < Minitest::Test
  include SvcTest::Live

  def test_auto_paging_walks_every_page_once
    c = client
    prefix = "pg-#{unique}"
    created = Array.new(5) { |i| c.inbox.tags.create(name: "#{prefix}-#{i}")['id'] }

    first = c.inbox.tags.list(limit: 2)
    assert_equal 2, first.size
    assert first.has_more?
    pages = 0
    page = first
    while page
      pages += 1
      page = page.next_page
    end
    assert_operator pages, :>, 1

    seen = first.auto_paging_each.map { |tag| tag['id'] }.select { |id| created.include?(id) }
    assert_equal created.sort, seen.sort
    assert_equal seen.uniq.size, seen.size
  end

  def test_auto_paging_each_is_an_enumerator_and_keeps_the_query
    c = client
    tag = c.inbox.tags.create(name: "q-#{unique}")['name']
    created = Array.new(3) { c.inbox.conversations.create(subject: 'Paged', tags: [tag])['id'] }
    c.inbox.conversations.create(subject: 'Not tagged')
    enum = c.inbox.conversations.list({ limit: 1, tag: tag }).auto_paging_each
    assert_kind_of Enumerator, enum
    found = enum.map { |conversation| conversation['id'] }
    # Every page kept `tag` (only those conversations came back) and `limit` (one per page).
    assert_equal created.sort, found.sort
    assert_equal 1, c.inbox.conversations.list(limit: 1, tag: tag).each.count
    # Stopping early fetches no further pages.
    assert_equal 2, c.inbox.conversations.list(limit: 1, tag: tag).auto_paging_each.first(2).size
  end
end
