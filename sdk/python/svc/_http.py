"""HTTP over urllib.request: one request with its retries, timeouts and the raw response.

Retried: network errors (connection refused or reset, a connection closed before the answer, timeouts) and
the statuses 429, 500, 502, 503, 504; never any other 4xx. The delay is exponential (0.5 s x 2^n, at most 8 s)
with jitter, or the ``Retry-After`` seconds the server asked for (at most 60 s). The caller sends the same
headers on every attempt, so a POST keeps its one Idempotency-Key and the server applies it once.
"""
from __future__ import annotations

import email.utils
import http.client
import random
import socket
import time
import urllib.error
import urllib.request
from typing import Any, Callable, Dict, Iterator, List, Mapping, Optional, Tuple

from .errors import APIConnectionError, APITimeoutError

__all__ = ["Headers", "APIResponse", "HTTPTransport", "RETRY_STATUSES", "backoff_delay", "retry_after_delay"]

RETRY_STATUSES = frozenset([429, 500, 502, 503, 504])
INITIAL_DELAY = 0.5
MAX_DELAY = 8.0
MAX_RETRY_AFTER = 60.0


class Headers(Mapping[str, str]):
    """Response headers, looked up case-insensitively (repeated headers are joined with ``, ``)."""

    def __init__(self, items: Any = ()) -> None:
        self._d: Dict[str, Tuple[str, str]] = {}
        pairs = items.items() if hasattr(items, "items") else items
        for k, v in pairs:
            key = str(k).lower()
            if key in self._d:
                self._d[key] = (self._d[key][0], self._d[key][1] + ", " + str(v))
            else:
                self._d[key] = (str(k), str(v))

    def __getitem__(self, key: str) -> str:
        return self._d[key.lower()][1]

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and key.lower() in self._d

    def __iter__(self) -> Iterator[str]:
        return (name for name, _ in self._d.values())

    def __len__(self) -> int:
        return len(self._d)

    def __repr__(self) -> str:
        return "Headers(%r)" % dict((n, v) for n, v in self._d.values())


class APIResponse:
    """What the last response was: ``status``, ``headers``, ``request_id`` (``X-Request-ID``), ``body`` (bytes;
    None for an event stream), the ``method`` and ``url`` of the request, and how many ``retries`` it took."""

    def __init__(self, method: str, url: str, status: int, headers: Headers, body: Optional[bytes], retries: int = 0) -> None:
        self.method = method
        self.url = url
        self.status = status
        self.headers = headers
        self.body = body
        self.retries = retries

    @property
    def request_id(self) -> Optional[str]:
        return self.headers.get("x-request-id")

    @property
    def content_type(self) -> str:
        return self.headers.get("content-type", "").split(";")[0].strip().lower()

    @property
    def idempotent_replayed(self) -> bool:
        return self.headers.get("idempotent-replayed", "").lower() == "true"

    def __repr__(self) -> str:
        return "<APIResponse %s %s -> %s (%s)>" % (self.method, self.url, self.status, self.request_id)


def backoff_delay(retry: int) -> float:
    """Seconds before retry number ``retry`` (0-based): 0.5 s x 2^n, at most 8 s, minus up to 25 % of jitter."""
    delay = min(INITIAL_DELAY * (2.0 ** retry), MAX_DELAY)
    return delay * (1 - 0.25 * random.random())


def retry_after_delay(headers: Mapping[str, str], now: Optional[float] = None) -> Optional[float]:
    """The ``Retry-After`` of a response in seconds (delay-seconds or an HTTP date), at most 60; None without one."""
    raw = headers.get("retry-after")
    if raw is None:
        return None
    raw = raw.strip()
    try:
        seconds = float(raw)
    except ValueError:
        try:
            when = email.utils.parsedate_to_datetime(raw)
        except (TypeError, ValueError, IndexError):
            return None
        if when is None:
            return None
        seconds = when.timestamp() - (time.time() if now is None else now)
    if seconds != seconds or seconds < 0:  # NaN or in the past
        return 0.0
    return min(seconds, MAX_RETRY_AFTER)


class _Sent:
    """One attempt's answer: status, headers and the open response (read by the caller)."""

    def __init__(self, status: int, headers: Headers, fp: Any) -> None:
        self.status = status
        self.headers = headers
        self.fp = fp


class HTTPTransport:
    """Sends requests with urllib.request. ``sleep`` is what waits between attempts (tests replace it)."""

    def __init__(self, opener: Optional[urllib.request.OpenerDirector] = None, sleep: Callable[[float], None] = time.sleep) -> None:
        self._opener = opener or urllib.request.build_opener()
        self._sleep = sleep

    def _attempt(self, method: str, url: str, headers: Mapping[str, str], body: Optional[bytes], timeout: float) -> _Sent:
        req = urllib.request.Request(url, data=body, headers=dict(headers), method=method)
        try:
            fp = self._opener.open(req, timeout=timeout)
            return _Sent(fp.status, Headers(fp.headers.items()), fp)
        except urllib.error.HTTPError as e:
            return _Sent(e.code, Headers(e.headers.items() if e.headers else ()), e)
        except urllib.error.URLError as e:
            reason = e.reason
            if isinstance(reason, (socket.timeout, TimeoutError)):
                raise APITimeoutError("Request to %s timed out after %ss" % (url, timeout), reason) from e
            raise APIConnectionError("Connection error on %s %s: %s" % (method, url, reason), e) from e
        except (socket.timeout, TimeoutError) as e:
            raise APITimeoutError("Request to %s timed out after %ss" % (url, timeout), e) from e
        except (OSError, http.client.HTTPException) as e:
            raise APIConnectionError("Connection error on %s %s: %s" % (method, url, e or type(e).__name__), e) from e

    @staticmethod
    def _read(sent: _Sent, url: str, timeout: float) -> bytes:
        try:
            return sent.fp.read()  # type: ignore[no-any-return]
        except (socket.timeout, TimeoutError) as e:
            raise APITimeoutError("Reading the answer of %s timed out after %ss" % (url, timeout), e) from e
        except (OSError, http.client.HTTPException) as e:
            raise APIConnectionError("Connection error reading the answer of %s: %s" % (url, e or type(e).__name__), e) from e
        finally:
            try:
                sent.fp.close()
            except Exception:
                pass

    def request(
        self,
        method: str,
        url: str,
        headers: Mapping[str, str],
        body: Optional[bytes],
        timeout: float,
        max_retries: int,
        stream: bool = False,
    ) -> Tuple[APIResponse, Any]:
        """Send with retries. Returns the response and, when ``stream`` and the status is 2xx, the open body
        (a file-like object to read lines from; ``response.body`` is then None)."""
        retries = 0
        while True:
            try:
                sent = self._attempt(method, url, headers, body, timeout)
                if stream and 200 <= sent.status < 300:
                    return APIResponse(method, url, sent.status, sent.headers, None, retries), sent.fp
                data = self._read(sent, url, timeout)
            except APIConnectionError:
                if retries >= max_retries:
                    raise
                self._sleep(backoff_delay(retries))
                retries += 1
                continue
            response = APIResponse(method, url, sent.status, sent.headers, data, retries)
            if sent.status in RETRY_STATUSES and retries < max_retries:
                after = retry_after_delay(sent.headers)
                self._sleep(after if after is not None else backoff_delay(retries))
                retries += 1
                continue
            return response, None


def split_lines(fp: Any) -> Iterator[bytes]:
    """The lines of an open response, read as they arrive."""
    while True:
        line = fp.readline()
        if not line:
            return
        yield line


def encode_query(params: Mapping[str, Any]) -> List[Tuple[str, str]]:
    """Query pairs: lists repeat the key, booleans are true/false, None is left out."""
    pairs: List[Tuple[str, str]] = []
    for key in params:
        value = params[key]
        values = value if isinstance(value, (list, tuple, set, frozenset)) else [value]
        for v in values:
            if v is None:
                continue
            pairs.append((key, _scalar(v)))
    return pairs


def _scalar(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if hasattr(v, "isoformat"):
        return str(v.isoformat())
    if isinstance(v, (dict, list)):
        import json

        return json.dumps(v, separators=(",", ":"))
    return str(v)
