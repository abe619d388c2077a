"""Problem details become typed errors with status, code, request id and field errors."""
from __future__ import annotations

import unittest

import svc

from ._support import client, env, live_only


@live_only
class Errors(unittest.TestCase):
    def test_not_found(self) -> None:
        c = client(max_retries=0)
        with self.assertRaises(svc.NotFoundError) as ctx:
            c.leads.get("lead_doesnotexist")
        e = ctx.exception
        self.assertIsInstance(e, svc.APIError)
        self.assertEqual(e.status, 404)
        self.assertEqual(e.code, "resource_not_found")
        self.assertTrue(e.request_id and e.request_id.startswith("req_"), e.request_id)
        self.assertEqual(e.request_id, e.headers.get("x-request-id"))
        self.assertTrue(e.title)
        self.assertIn(b"resource_not_found", e.body)
        self.assertEqual(c.last_response.status, 404)

    def test_validation(self) -> None:
        c = client(max_retries=0)
        with self.assertRaises(svc.ValidationError) as ctx:
            c.leads.create({"email": "not-an-email"})
        e = ctx.exception
        self.assertIsInstance(e, svc.InvalidRequestError)
        self.assertEqual(e.status, 422)
        self.assertTrue(e.code)
        self.assertGreater(len(e.errors), 0)
        self.assertTrue(all("pointer" in x and "detail" in x for x in e.errors))
        self.assertIn("/email", " ".join(x["pointer"] for x in e.errors))

    def test_authentication(self) -> None:
        c = svc.Client(api_key="svc_live_nope", base_url=env("SVC_BASE_URL"), max_retries=0)
        with self.assertRaises(svc.AuthenticationError) as ctx:
            c.leads.list()
        self.assertEqual(ctx.exception.status, 401)
        self.assertTrue(ctx.exception.request_id.startswith("req_"))

    def test_sandbox_key_on_the_live_base(self) -> None:
        c = svc.Client(api_key=env("SVC_TEST_KEY"), base_url=env("SVC_BASE_URL"), max_retries=0)
        with self.assertRaises(svc.AuthenticationError):
            c.leads.list()

    def test_catch_all(self) -> None:
        with self.assertRaises(svc.SvcError):
            client(max_retries=0).bots.get("bot_nope")


if __name__ == "__main__":
    unittest.main()
