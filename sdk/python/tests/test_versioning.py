"""Svc-Api-Version and User-Agent reach the server."""
from __future__ import annotations

import platform
import unittest

import svc

from ._support import client, live_only, unique


@live_only
class Versioning(unittest.TestCase):
    def test_default_pin_is_the_generated_version(self) -> None:
        c = client()
        self.assertEqual(c.api_version, svc.API_VERSION)
        conv = c.inbox.conversations.create({"channel": "api"})
        self.assertEqual(c.last_response.headers["Svc-Api-Version"], svc.API_VERSION)
        self.assertIsInstance(conv["lead_score"], dict)  # the 2.4.0 shape: { score, factors }

    def test_pinning_an_older_version_changes_the_shape(self) -> None:
        c = client(api_version="2.3.4")
        conv = c.inbox.conversations.create({"channel": "api"})
        self.assertIsInstance(conv["lead_score"], (int, float), "the server did not see Svc-Api-Version: 2.3.4")
        fetched = client().inbox.conversations.get(conv["id"], api_version="2.3.4")  # per request too
        self.assertIsInstance(fetched["lead_score"], (int, float))
        self.assertIsInstance(client().inbox.conversations.get(conv["id"])["lead_score"], dict)

    def test_user_agent_is_recorded(self) -> None:
        c = client()
        tag = c.inbox.tags.create(name=unique("ua"))
        entries = [e for e in c.compliance.audit_log.list(limit=100, target_id=tag["id"]).auto_paging_iter()]
        self.assertTrue(entries, "no audit entry for the tag")
        expected = "svc-python/%s (python %s)" % (svc.VERSION, platform.python_version())
        self.assertEqual(entries[0]["user_agent"], expected)
        self.assertEqual(svc._client.USER_AGENT, expected)


if __name__ == "__main__":
    unittest.main()
