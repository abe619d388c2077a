"""Server-Sent Events from agents.dry_run.stream against the live server."""
from __future__ import annotations

import unittest

import svc

from ._support import client, live_only, unique


@live_only
class Streaming(unittest.TestCase):
    def test_dry_run_stream_ends_with_completed(self) -> None:
        c = client()
        agent = c.agents.create({"name": unique("agent"), "instructions": "Answer briefly."})
        with c.agents.dry_run.stream(agent["id"], {"input": "What are your opening hours?"}) as stream:
            self.assertIsInstance(stream, svc.Stream)
            self.assertEqual(stream.response.status, 200)
            self.assertTrue(stream.response.headers["content-type"].startswith("text/event-stream"))
            events = list(stream)
        self.assertGreater(len(events), 0)
        for e in events:
            self.assertIsInstance(e, svc.ServerSentEvent)
            self.assertIsInstance(e.data, dict, e)  # JSON-parsed
            self.assertTrue(e.id)
        last = events[-1]
        self.assertEqual(last.event, "completed")
        self.assertEqual(last["event"], "completed")
        self.assertEqual(last.data["dry_run"]["object"], "agent_dry_run")
        self.assertEqual(last.data["dry_run"]["agent_id"], agent["id"])
        self.assertEqual(stream.last_event_id, last.id)
        self.assertTrue(all(e.event in ("step.started", "step.completed", "approval.required") for e in events[:-1]))

    def test_stream_errors_before_it_starts_raise(self) -> None:
        with self.assertRaises(svc.NotFoundError):
            client(max_retries=0).agents.dry_run.stream("agt_doesnotexist", input="hi")


if __name__ == "__main__":
    unittest.main()
