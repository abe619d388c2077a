"""Webhook verification against a real delivery captured from the server (and hand-made signatures)."""
from __future__ import annotations

import os
import time
import unittest

import svc

from ._support import load_json


def fixture() -> dict:
    return load_json(os.environ["SVC_WEBHOOK_FIXTURE"])  # type: ignore[no-any-return]


STANDARD = ("webhook-id", "webhook-timestamp", "webhook-signature")


@unittest.skipUnless(os.environ.get("SVC_WEBHOOK_FIXTURE"), "needs SVC_WEBHOOK_FIXTURE (run via python.sdk.test.ts)")
class RealDelivery(unittest.TestCase):
    def setUp(self) -> None:
        f = fixture()
        self.secret: str = f["secret"]
        self.body: str = f["body"]
        self.headers: dict = f["headers"]
        self.t = int(self.headers["webhook-timestamp"])
        self.now = float(self.t + 5)

    def test_all_real_headers(self) -> None:
        event = svc.Webhook.construct_event(self.body, self.headers, self.secret, now=self.now)
        self.assertEqual(event["type"], "webhook.test")
        self.assertTrue(event["id"].startswith("evt_"))
        # bytes, and any header case
        upper = {k.upper(): v for k, v in self.headers.items()}
        self.assertEqual(svc.Webhook.construct_event(self.body.encode("utf-8"), upper, self.secret, now=self.now)["id"], event["id"])

    def test_with_the_clock(self) -> None:
        # The delivery was captured moments ago: the default clock and tolerance accept it.
        if abs(time.time() - self.t) > 250:
            self.skipTest("the captured delivery is older than the tolerance allows")
        self.assertEqual(svc.Webhook.construct_event(self.body, self.headers, self.secret)["type"], "webhook.test")

    def test_standard_webhooks_headers_only(self) -> None:
        only = {k: v for k, v in self.headers.items() if k.lower() in STANDARD}
        self.assertEqual(len(only), 3)
        self.assertEqual(svc.Webhook.construct_event(self.body, only, self.secret, now=self.now)["type"], "webhook.test")

    def test_svc_status_signature_only(self) -> None:
        only = [(k, v) for k, v in self.headers.items() if k.lower() == "svc-status-signature"]
        self.assertEqual(len(only), 1)
        self.assertEqual(svc.Webhook.construct_event(self.body, only, self.secret, now=self.now)["type"], "webhook.test")

    def test_one_altered_byte_fails(self) -> None:
        raw = bytearray(self.body.encode("utf-8"))
        i = raw.index(b"webhook.test")
        raw[i] = ord("W")
        for headers in (self.headers, {k: v for k, v in self.headers.items() if k.lower() in STANDARD}):
            with self.assertRaises(svc.SignatureVerificationError):
                svc.Webhook.construct_event(bytes(raw), headers, self.secret, now=self.now)

    def test_wrong_secret_fails(self) -> None:
        other = "whsec_" + "QUJD" * 11
        with self.assertRaises(svc.SignatureVerificationError):
            svc.Webhook.construct_event(self.body, self.headers, other, now=self.now)
        with self.assertRaises(svc.SignatureVerificationError):
            svc.Webhook.construct_event(self.body, self.headers, self.secret + "x", now=self.now)

    def test_old_timestamp_fails(self) -> None:
        for headers in (
            self.headers,
            {k: v for k, v in self.headers.items() if k.lower() in STANDARD},
            {k: v for k, v in self.headers.items() if k.lower() == "svc-status-signature"},
        ):
            with self.assertRaises(svc.SignatureVerificationError):
                svc.Webhook.construct_event(self.body, headers, self.secret, now=self.t + 301)
            with self.assertRaises(svc.SignatureVerificationError):
                svc.Webhook.construct_event(self.body, headers, self.secret, now=self.t - 301)
            svc.Webhook.construct_event(self.body, headers, self.secret, now=self.t + 300)
        # A wider tolerance accepts it.
        svc.Webhook.construct_event(self.body, self.headers, self.secret, tolerance=600, now=self.t + 301)

    def test_missing_headers_fail(self) -> None:
        with self.assertRaises(svc.SignatureVerificationError):
            svc.Webhook.construct_event(self.body, {"content-type": "application/json"}, self.secret, now=self.now)


class HandMade(unittest.TestCase):
    """Signatures made here (no server needed): rotation, malformed headers."""

    secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
    body = '{"id":"evt_1","type":"lead.created","data":{}}'

    def test_sign_then_verify(self) -> None:
        headers = svc.Webhook.sign(self.body, self.secret, timestamp=1700000000, msg_id="evt_1")
        self.assertEqual(svc.Webhook.construct_event(self.body, headers, self.secret, now=1700000010)["type"], "lead.created")

    def test_any_v1_matches_during_rotation(self) -> None:
        old = "whsec_" + "b2xkc2VjcmV0b2xkc2VjcmV0b2xkc2VjcmV0"
        a = svc.Webhook.sign(self.body, old, timestamp=1700000000, msg_id="evt_1")
        b = svc.Webhook.sign(self.body, self.secret, timestamp=1700000000, msg_id="evt_1")
        headers = {
            "Svc-Status-Signature": a["Svc-Status-Signature"] + "," + b["Svc-Status-Signature"].split(",")[1],
            "webhook-id": "evt_1",
            "webhook-timestamp": "1700000000",
            "webhook-signature": a["webhook-signature"] + " " + b["webhook-signature"],
        }
        for h in (headers, {"Svc-Status-Signature": headers["Svc-Status-Signature"]}, {k: v for k, v in headers.items() if k.startswith("webhook")}):
            svc.Webhook.construct_event(self.body, h, self.secret, now=1700000000)
            svc.Webhook.construct_event(self.body, h, old, now=1700000000)

    def test_malformed_headers(self) -> None:
        for bad in ("", "t=abc,v1=00", "v1=00", "t=1700000000", "garbage"):
            with self.assertRaises(svc.SignatureVerificationError):
                svc.Webhook.construct_event(self.body, {"Svc-Status-Signature": bad}, self.secret, now=1700000000)
        with self.assertRaises(svc.SignatureVerificationError):
            svc.Webhook.construct_event(
                self.body, {"webhook-id": "evt_1", "webhook-timestamp": "1700000000", "webhook-signature": "v2,abc"}, self.secret, now=1700000000
            )

    def test_verify_returns_nothing_and_raises(self) -> None:
        headers = svc.Webhook.sign(self.body, self.secret, timestamp=1700000000)
        self.assertIsNone(svc.Webhook.verify(self.body, headers, self.secret, now=1700000000))
        with self.assertRaises(svc.SignatureVerificationError):
            svc.Webhook.verify(self.body + " ", headers, self.secret, now=1700000000)


if __name__ == "__main__":
    unittest.main()
