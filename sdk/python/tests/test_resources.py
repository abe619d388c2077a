"""Create, read, update and list in every module, against the live server."""
from __future__ import annotations

import time
import unittest

import svc

from ._support import client, env, live_only, unique


@live_only
class Modules(unittest.TestCase):
    c: svc.Client

    @classmethod
    def setUpClass(cls) -> None:
        cls.c = client()

    def test_workspaces(self) -> None:
        ws = self.c.workspaces.current.get()
        self.assertEqual(ws["object"], "workspace")
        self.assertEqual(ws["id"], env("SVC_WORKSPACE_ID"))
        updated = self.c.workspaces.update(ws["id"], {"metadata": {"sdk": "python"}})
        self.assertEqual(updated["metadata"], {"sdk": "python"})
        self.assertEqual(self.c.workspaces.get(ws["id"])["metadata"], {"sdk": "python"})

    def test_inbox(self) -> None:
        conv = self.c.inbox.conversations.create({"channel": "api"})
        self.assertEqual(conv["object"], "conversation")
        self.assertEqual(conv["channel"], "api")
        # Keyword arguments are the same params.
        other = self.c.inbox.conversations.create(channel="email", subject="By kwargs")
        self.assertEqual((other["channel"], other["subject"]), ("email", "By kwargs"))
        self.assertEqual(self.c.inbox.conversations.get(conv["id"])["id"], conv["id"])
        updated = self.c.inbox.conversations.update(conv["id"], {"subject": "Updated by python"})
        self.assertEqual(updated["subject"], "Updated by python")
        ids = [x["id"] for x in self.c.inbox.conversations.list({"limit": 100}).auto_paging_iter()]
        self.assertIn(conv["id"], ids)
        self.assertIn(other["id"], ids)

        msg = self.c.inbox.conversations.messages.send(conv["id"], {"content": "Hello from python"})
        self.assertEqual(msg["object"], "message")
        self.assertEqual(msg["content"], "Hello from python")
        messages = self.c.inbox.conversations.messages.list(conv["id"])
        self.assertIn(msg["id"], [m["id"] for m in messages])

        name = unique("tag")
        tag = self.c.inbox.tags.create(name=name)
        self.assertEqual(tag["name"], name)
        self.assertIn(tag["id"], [t["id"] for t in self.c.inbox.tags.list(limit=100).auto_paging_iter()])

    def test_webhook_endpoints(self) -> None:
        ep = self.c.webhooks.endpoints.create({"url": "https://example.com/hook", "event_types": ["lead.created"]})
        self.assertEqual(ep["url"], "https://example.com/hook")
        self.assertTrue(ep["secret"].startswith("whsec_"))
        self.assertEqual(self.c.webhooks.endpoints.get(ep["id"])["id"], ep["id"])
        updated = self.c.webhooks.endpoints.update(ep["id"], description="python sdk")
        self.assertEqual(updated["description"], "python sdk")
        self.assertIn(ep["id"], [e["id"] for e in self.c.webhooks.endpoints.list().auto_paging_iter()])
        deleted = self.c.webhooks.endpoints.delete(ep["id"])
        self.assertTrue(deleted["deleted"])
        with self.assertRaises(svc.NotFoundError):
            self.c.webhooks.endpoints.get(ep["id"])

    def test_leads(self) -> None:
        email = "%s@example.com" % unique("lead")
        lead = self.c.leads.create({"name": "Ada Lovelace", "email": email})
        self.assertEqual(lead["object"], "lead")
        self.assertEqual(self.c.leads.get(lead["id"])["email"], email)
        updated = self.c.leads.update(lead["id"], {"company": "Analytical Engines"})
        self.assertEqual(updated["company"], "Analytical Engines")
        found = [x["id"] for x in self.c.leads.list({"email": email})]
        self.assertEqual(found, [lead["id"]])

    def test_knowledge(self) -> None:
        kb = self.c.knowledge.bases.create({"name": unique("kb")})
        self.assertEqual(self.c.knowledge.bases.get(kb["id"])["id"], kb["id"])
        self.assertEqual(self.c.knowledge.bases.update(kb["id"], description="python")["description"], "python")
        self.assertIn(kb["id"], [b["id"] for b in self.c.knowledge.bases.list().auto_paging_iter()])
        doc = self.c.knowledge.bases.documents.upload(
            kb["id"], {"title": "Refunds", "text": "Refunds are processed within 14 days of the request."}
        )
        self.assertEqual(doc["object"], "knowledge_document")
        deadline = time.monotonic() + 20
        got = self.c.knowledge.documents.get(doc["id"])
        while got["status"] not in ("ready", "failed") and time.monotonic() < deadline:
            time.sleep(0.2)
            got = self.c.knowledge.documents.get(doc["id"])
        self.assertEqual(got["status"], "ready")
        result = self.c.knowledge.search({"query": "refunds processed", "knowledge_base_ids": [kb["id"]]})
        self.assertEqual(result["object"], "knowledge_search")
        self.assertIn(doc["id"], [r["citation"]["document_id"] for r in result["results"]])

    def test_bots(self) -> None:
        bot = self.c.bots.create({"name": unique("bot")})
        self.assertEqual(bot["status"], "draft")
        self.assertEqual(self.c.bots.get(bot["id"])["id"], bot["id"])
        self.assertEqual(self.c.bots.update(bot["id"], greeting="Hi!")["greeting"], "Hi!")
        self.assertIn(bot["id"], [b["id"] for b in self.c.bots.list().auto_paging_iter()])

    def test_agents(self) -> None:
        agent = self.c.agents.create({"name": unique("agent"), "instructions": "Answer briefly."})
        self.assertEqual(agent["object"], "agent")
        self.assertEqual(self.c.agents.get(agent["id"])["id"], agent["id"])
        self.assertEqual(self.c.agents.update(agent["id"], {"max_steps": 3})["max_steps"], 3)
        self.assertIn(agent["id"], [a["id"] for a in self.c.agents.list().auto_paging_iter()])
        dry = self.c.agents.dry_run(agent["id"], {"input": "hello"})
        self.assertEqual(dry["object"], "agent_dry_run")

    def test_voice(self) -> None:
        numbers = self.c.voice.numbers.list()
        self.assertIsInstance(numbers, svc.Page)
        self.assertEqual(numbers.object, "list")
        calls = self.c.voice.calls.list({"limit": 5})
        self.assertEqual(calls["object"], "list")
        self.assertIsInstance(calls.data, list)

    def test_compliance(self) -> None:
        retention = self.c.compliance.retention.get()
        self.assertEqual(retention["object"], "retention_policies")
        redaction = self.c.compliance.pii_redaction.redact({"text": "Mail me at ada@example.com"})
        self.assertEqual(redaction["entity_count"], 1)
        self.assertNotIn("ada@example.com", redaction["items"][0]["redacted"])
        entries = self.c.compliance.audit_log.list({"limit": 5})
        self.assertGreater(len(entries), 0)
        self.assertEqual(entries[0]["object"], "audit_entry")

    def test_health_events_root(self) -> None:
        self.assertIn(self.c.health.get()["status"], ("ok", "degraded"))
        events = self.c.events.list(limit=3)
        self.assertLessEqual(len(events), 3)
        self.assertTrue(events.has_more)
        root = self.c.get_api_root()
        self.assertEqual(root["object"], "api_root")
        self.assertTrue(root["livemode"])

    def test_sandbox_base_url(self) -> None:
        sandbox = svc.Client(api_key=env("SVC_TEST_KEY"), base_url=env("SVC_SANDBOX_URL"))
        self.assertTrue(sandbox.base_url.endswith("/sandbox/v2"))
        root = sandbox.get_api_root()
        self.assertFalse(root["livemode"])
        lead = sandbox.leads.create(name="Sandbox lead")
        self.assertEqual(sandbox.leads.get(lead["id"])["id"], lead["id"])
        with self.assertRaises(svc.NotFoundError):
            self.c.leads.get(lead["id"])  # live mode does not see sandbox objects
        # The origin alone: the client appends /sandbox/v2 for a svc_test_ key.
        origin = env("SVC_SANDBOX_URL")[: -len("/sandbox/v2")]
        self.assertEqual(svc.Client(api_key=env("SVC_TEST_KEY"), base_url=origin).get_api_root()["livemode"], False)
        self.assertEqual(svc.Client(api_key=env("SVC_API_KEY"), base_url=origin + "/").get_api_root()["livemode"], True)


if __name__ == "__main__":
    unittest.main()
