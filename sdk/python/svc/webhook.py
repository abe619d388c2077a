"""Verifying the webhooks the API sends, and reading their event.

A delivery carries two equivalent sets of signature headers; either one is enough:

* ``Svc-Status-Signature: t=<unix>,v1=<hex>[,v1=<hex>...]`` where each v1 is
  hex(HMAC-SHA256(key = the whole secret string ``whsec_...``, message = ``<t>.<raw body>``));
  there is one v1 per active secret (two while a rotated secret is in its grace period).
* Standard Webhooks: ``webhook-id``, ``webhook-timestamp`` and ``webhook-signature: v1,<base64> [v1,<base64>...]``
  with base64(HMAC-SHA256(key = base64-decode(the secret without ``whsec_``), message = ``<id>.<t>.<raw body>``)).

Verify over the raw body exactly as received (bytes, before any JSON parsing), with the endpoint's secret.
Signatures are compared in constant time (``hmac.compare_digest``) and a timestamp further than
``tolerance`` seconds from now (either way) is refused, so a captured delivery cannot be replayed later.
"""
from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import re
import time
from typing import Any, Dict, List, Mapping, Optional, Tuple, Union

from ._object import SvcObject
from .errors import SignatureVerificationError

__all__ = ["Webhook", "WebhookSignature", "DEFAULT_TOLERANCE"]

DEFAULT_TOLERANCE = 300
SIGNATURE_HEADER = "svc-status-signature"

_TIMESTAMP = re.compile(r"^[0-9]{1,12}$")


def _header(headers: Any, name: str) -> Optional[str]:
    """A header from a dict, a list of pairs or a Message-like object, by case-insensitive name."""
    if headers is None:
        return None
    if isinstance(headers, (str, bytes)):
        # The Svc-Status-Signature value alone (``t=…,v1=…``), as Stripe's construct_event takes its header.
        if name != SIGNATURE_HEADER:
            return None
        return headers.decode("latin-1") if isinstance(headers, bytes) else headers
    pairs = headers.items() if hasattr(headers, "items") else headers
    for k, v in pairs:
        if str(k).lower() == name:
            if isinstance(v, (list, tuple)):
                v = ", ".join(str(x) for x in v) if name != "webhook-signature" else " ".join(str(x) for x in v)
            if isinstance(v, bytes):
                v = v.decode("latin-1")
            return str(v)
    return None


def _bytes(payload: Union[str, bytes, bytearray]) -> bytes:
    if isinstance(payload, (bytes, bytearray)):
        return bytes(payload)
    if isinstance(payload, str):
        return payload.encode("utf-8")
    raise TypeError("payload must be the raw body as bytes or str, not %s" % type(payload).__name__)


def _standard_key(secret: str) -> bytes:
    """The HMAC key of Standard Webhooks: the base64 after ``whsec_``, decoded strictly."""
    raw = (secret[len("whsec_") :] if secret.startswith("whsec_") else secret).strip()
    raw += "=" * (-len(raw) % 4)
    try:
        return base64.b64decode(raw, validate=True)
    except (binascii.Error, ValueError):
        raise SignatureVerificationError("The secret is not a Standard Webhooks secret (whsec_<base64>)")


class WebhookSignature:
    """The two signature checks, each returning nothing or raising :class:`SignatureVerificationError`."""

    @staticmethod
    def _check_time(t: int, tolerance: float, now: Optional[float]) -> None:
        current = time.time() if now is None else now
        if abs(current - t) > tolerance:
            raise SignatureVerificationError("Timestamp %d is outside the tolerance of %ss (now %d)" % (t, tolerance, int(current)))

    @staticmethod
    def parse_svc_header(header: str) -> Tuple[int, List[str]]:
        """``t=<unix>,v1=<hex>[,v1=<hex>]`` → (t, [v1, ...])."""
        t: Optional[int] = None
        v1: List[str] = []
        for part in header.split(","):
            k, sep, v = part.strip().partition("=")
            if not sep:
                raise SignatureVerificationError("Malformed Svc-Status-Signature header", header)
            if k == "t":
                if not _TIMESTAMP.match(v):
                    raise SignatureVerificationError("Malformed timestamp in Svc-Status-Signature", header)
                t = int(v)
            elif k == "v1":
                v1.append(v.strip().lower())
        if t is None or not v1:
            raise SignatureVerificationError("Svc-Status-Signature has no t or no v1 signature", header)
        return t, v1

    @classmethod
    def verify_svc(cls, payload: bytes, header: str, secret: str, tolerance: float = DEFAULT_TOLERANCE, now: Optional[float] = None) -> None:
        t, signatures = cls.parse_svc_header(header)
        expected = hmac.new(secret.encode("utf-8"), b"%d." % t + payload, hashlib.sha256).hexdigest()
        if not any(hmac.compare_digest(expected.encode("ascii"), s.encode("ascii", "replace")) for s in signatures):
            raise SignatureVerificationError("No v1 signature in Svc-Status-Signature matches the payload", header)
        cls._check_time(t, tolerance, now)

    @classmethod
    def verify_standard(
        cls, payload: bytes, msg_id: str, timestamp: str, header: str, secret: str, tolerance: float = DEFAULT_TOLERANCE, now: Optional[float] = None
    ) -> None:
        if not _TIMESTAMP.match(timestamp.strip()):
            raise SignatureVerificationError("Malformed webhook-timestamp", timestamp)
        t = int(timestamp.strip())
        key = _standard_key(secret)
        expected = base64.b64encode(hmac.new(key, ("%s.%d." % (msg_id, t)).encode("utf-8") + payload, hashlib.sha256).digest())
        got = [p[3:].encode("ascii", "replace") for p in header.split() if p.startswith("v1,")]
        if not got:
            raise SignatureVerificationError("webhook-signature has no v1 signature", header)
        if not any(hmac.compare_digest(expected, g) for g in got):
            raise SignatureVerificationError("No v1 signature in webhook-signature matches the payload", header)
        cls._check_time(t, tolerance, now)


class Webhook:
    """``svc.Webhook.construct_event(payload, headers, secret)``: the verified event, parsed."""

    DEFAULT_TOLERANCE = DEFAULT_TOLERANCE

    @staticmethod
    def verify(
        payload: Union[str, bytes, bytearray],
        headers: Any,
        secret: str,
        tolerance: float = DEFAULT_TOLERANCE,
        now: Optional[float] = None,
    ) -> None:
        """Raise :class:`SignatureVerificationError` unless one of the signature header sets is valid.

        ``headers``: a mapping (any case), a list of (name, value) pairs or an ``email.message.Message``;
        or the ``Svc-Status-Signature`` header's value alone (a string, as Stripe's ``sig_header``).
        ``now``: unix seconds to check the timestamp against (default: the clock).
        """
        if not isinstance(secret, str) or not secret:
            raise SignatureVerificationError("No webhook secret given")
        body = _bytes(payload)
        svc_header = _header(headers, SIGNATURE_HEADER)
        std = (_header(headers, "webhook-id"), _header(headers, "webhook-timestamp"), _header(headers, "webhook-signature"))
        has_std = all(v is not None for v in std)
        if svc_header is None and not has_std:
            raise SignatureVerificationError("No Svc-Status-Signature or webhook-id/webhook-timestamp/webhook-signature headers")
        failure: Optional[SignatureVerificationError] = None
        if svc_header is not None:
            try:
                WebhookSignature.verify_svc(body, svc_header, secret, tolerance, now)
                return
            except SignatureVerificationError as e:
                failure = e
        if has_std:
            try:
                WebhookSignature.verify_standard(body, str(std[0]), str(std[1]), str(std[2]), secret, tolerance, now)
                return
            except SignatureVerificationError as e:
                failure = failure or e
        assert failure is not None
        raise failure

    @classmethod
    def construct_event(
        cls,
        payload: Union[str, bytes, bytearray],
        headers: Any,
        secret: str,
        tolerance: float = DEFAULT_TOLERANCE,
        now: Optional[float] = None,
    ) -> Dict[str, Any]:
        """Verify the delivery (see :meth:`verify`) and return its event (the parsed JSON body)."""
        cls.verify(payload, headers, secret, tolerance, now)
        try:
            event = json.loads(_bytes(payload).decode("utf-8"), object_hook=SvcObject)
        except ValueError as e:
            raise SignatureVerificationError("The payload is not JSON: %s" % e)
        if not isinstance(event, dict):
            raise SignatureVerificationError("The payload is not a JSON object")
        return event

    @staticmethod
    def sign(payload: Union[str, bytes, bytearray], secret: str, timestamp: Optional[int] = None, msg_id: Optional[str] = None) -> Mapping[str, str]:
        """The headers the API would send for ``payload`` (both sets): for testing your own handler."""
        body = _bytes(payload)
        t = int(time.time()) if timestamp is None else int(timestamp)
        mid = msg_id or "evt_test"
        v1 = hmac.new(secret.encode("utf-8"), b"%d." % t + body, hashlib.sha256).hexdigest()
        std = base64.b64encode(hmac.new(_standard_key(secret), ("%s.%d." % (mid, t)).encode("utf-8") + body, hashlib.sha256).digest()).decode("ascii")
        return {
            "Svc-Status-Signature": "t=%d,v1=%s" % (t, v1),
            "webhook-id": mid,
            "webhook-timestamp": str(t),
            "webhook-signature": "v1,%s" % std,
        }
