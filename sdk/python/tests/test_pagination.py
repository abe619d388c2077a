"""Iteration across pages keeps the params and follows next_cursor until has_more is false."""
from __future__ import annotations

import unittest

import svc

from ._support import client, live_only, unique


@live_only
class Pagination(unittest.TestCase):
    def test_auto_paging_iter_walks_every_page(self) -> None:
        c = client()
        prefix = unique("page")
        created = [c.inbox.tags.create({"name": "%s-%d" % (prefix, i)})["id"] for i in range(5)]

        first = c.inbox.tags.list({"limit": 2})
        self.assertIsInstance(first, svc.Page)
        self.assertEqual(len(first.data), 2)
        self.assertEqual(len(list(first)), 2)  # the page iterates over its own data
        self.assertTrue(first.has_more)
        self.assertTrue(first["has_more"])

        pages = list(first.iter_pages())
        self.assertGreater(len(pages), 2)
        self.assertTrue(all(len(p.data) <= 2 for p in pages))
        self.assertFalse(pages[-1].has_more)

        seen = [t["id"] for t in c.inbox.tags.list({"limit": 2}).auto_paging_iter()]
        self.assertEqual(len(seen), len(set(seen)), "an item came twice")
        for tag_id in created:
            self.assertEqual(seen.count(tag_id), 1)
        # Every request asked for 2: the params travel with the cursor.
        self.assertIn("limit=2", c.last_response.url)
        self.assertIn("cursor=", c.last_response.url)

    def test_filters_survive_paging(self) -> None:
        c = client()
        tag = unique("pager")
        ids = [c.leads.create({"email": "%d-%s@example.com" % (i, tag), "source": "import"})["id"] for i in range(3)]
        seen = list(c.leads.list(limit=1, source="import").auto_paging_iter())  # keyword params, one per page
        self.assertTrue(all(x["source"] == "import" for x in seen), "the filter was lost on a later page")
        for lead_id in ids:
            self.assertEqual([x["id"] for x in seen].count(lead_id), 1)
        page = c.leads.list(limit=1)
        second = page.next_page()
        assert second is not None
        self.assertNotEqual(page[0]["id"], second[0]["id"])


if __name__ == "__main__":
    unittest.main()
