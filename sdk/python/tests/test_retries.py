"""Retries through the steerable proxy: a dropped connection (same Idempotency-Key, applied once) and a 429."""
from __future__ import annotations

import time
import unittest

import svc

from ._support import client, env, live_only, proxy, unique


@live_only
class Retries(unittest.TestCase):
    def test_dropped_connection_is_retried_with_the_same_idempotency_key(self) -> None:
        c = client(base_url=env("SVC_PROXY_BASE_URL"))
        email = "%s@example.com" % unique("retry")
        before = len(proxy()["requests"])
        proxy("drop-next")
        lead = c.leads.create({"name": "Retried", "email": email})
        self.assertEqual(lead["email"], email)
        self.assertEqual(c.last_response.retries, 1)
        self.assertTrue(c.last_response.idempotent_replayed, "the retry should be answered from the first attempt")

        seen = [r for r in proxy()["requests"][before:] if r["method"] == "POST" and r["path"].endswith("/leads")]
        self.assertEqual(len(seen), 2, seen)
        self.assertTrue(seen[0]["dropped"])
        self.assertFalse(seen[1]["dropped"])
        self.assertTrue(seen[0]["idempotency_key"])
        self.assertEqual(seen[0]["idempotency_key"], seen[1]["idempotency_key"])

        found = [x["id"] for x in client().leads.list({"email": email}).auto_paging_iter()]
        self.assertEqual(found, [lead["id"]], "the lead must exist exactly once")

    def test_a_given_idempotency_key_is_sent(self) -> None:
        c = client(base_url=env("SVC_PROXY_BASE_URL"))
        key = unique("idem")
        before = len(proxy()["requests"])
        first = c.inbox.tags.create({"name": unique("idem")}, idempotency_key=key)
        again = c.inbox.tags.create({"name": first["name"]}, idempotency_key=key)
        self.assertEqual(first["id"], again["id"])
        self.assertEqual([r["idempotency_key"] for r in proxy()["requests"][before:]], [key, key])

    def test_429_waits_for_retry_after(self) -> None:
        c = client(base_url=env("SVC_PROXY_BASE_URL"))
        before = len(proxy()["requests"])
        proxy("429-next")
        started = time.monotonic()
        health = c.health.get()
        elapsed = time.monotonic() - started
        self.assertEqual(health["object"], "health")
        self.assertGreaterEqual(elapsed, 0.9)
        self.assertEqual(len(proxy()["requests"][before:]), 2)

    def test_429_without_retries_raises(self) -> None:
        c = client(base_url=env("SVC_PROXY_BASE_URL"), max_retries=0)
        proxy("429-next")
        with self.assertRaises(svc.RateLimitError) as ctx:
            c.health.get()
        self.assertEqual(ctx.exception.status, 429)
        self.assertEqual(ctx.exception.code, "rate_limited")
        self.assertEqual(ctx.exception.request_id, "req_proxy429")
        self.assertEqual(ctx.exception.headers.get("Retry-After"), "1")

    def test_connection_refused_is_a_connection_error(self) -> None:
        import socket

        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
        s.close()
        c = svc.Client(api_key=env("SVC_API_KEY"), base_url="http://127.0.0.1:%d" % port, max_retries=1)
        started = time.monotonic()
        with self.assertRaises(svc.APIConnectionError):
            c.health.get()
        self.assertGreaterEqual(time.monotonic() - started, 0.3)  # one backoff of ~0.5 s


if __name__ == "__main__":
    unittest.main()
