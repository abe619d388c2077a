"""svc.Client: configuration, the request pipeline and the generated namespaces."""
from __future__ import annotations

import json
import os
import platform
import re
import threading
import uuid
from typing import Any, Dict, Mapping, Optional, Sequence
from urllib.parse import quote, urlencode

from ._generated.client import GeneratedClient
from ._http import APIResponse, HTTPTransport, encode_query, split_lines
from ._object import SvcObject
from ._version import API_VERSION, DEFAULT_BASE_URL, VERSION
from .errors import error_for_response
from .pagination import Page
from .sse import Stream

__all__ = ["Client", "resolve_base_url", "USER_AGENT"]

USER_AGENT = "svc-python/%s (python %s)" % (VERSION, platform.python_version())
_WRITE_METHODS = frozenset(["POST", "PUT", "PATCH", "DELETE"])
_PATH_PARAM = re.compile(r"\{[^}]+\}")


def resolve_base_url(base_url: Optional[str], api_key: Optional[str]) -> str:
    """The URL requests go to: an origin gets ``/v2`` (``svc_live_`` keys) or ``/sandbox/v2`` (``svc_test_``
    keys) appended; a URL already ending in ``/v2`` (or ``/sandbox/v2``) is used as it is."""
    url = (base_url or DEFAULT_BASE_URL).rstrip("/")
    if url.endswith("/v2"):
        return url
    if api_key and api_key.startswith("svc_test_"):
        return url + "/sandbox/v2"
    return url + "/v2"


class Client(GeneratedClient):
    """A client of the API.

    >>> import svc
    >>> client = svc.Client(api_key="svc_live_...")
    >>> conversation = client.inbox.conversations.create({"channel": "api"})

    ``api_key``: ``svc_live_…`` or ``svc_test_…`` (default: the ``SVC_API_KEY`` environment variable).
    ``base_url``: the API's origin (default ``https://api.example.com``); ``/v2`` or ``/sandbox/v2`` is
    appended by key mode unless the URL already ends with it. ``max_retries``: retries of a network error,
    429, 500, 502, 503, 504 (default 2). ``timeout``: seconds to wait for a connection and for each read
    (default 60). ``api_version``: the ``Svc-Api-Version`` to pin (default: the version this client was
    generated from). ``default_headers``: sent with every request.

    Every method also takes ``api_key``, ``timeout``, ``max_retries``, ``api_version``, ``extra_headers`` (and,
    for POST/PUT/PATCH/DELETE, ``idempotency_key``) for that call only. Results are :class:`svc.SvcObject`:
    dicts whose keys are attributes too (``bot.id`` and ``bot["id"]``). After each call, ``client.last_response``
    has its status, headers and request id (per thread).
    """

    def __init__(
        self,
        api_key: Optional[str] = None,
        *,
        base_url: Optional[str] = None,
        max_retries: int = 2,
        timeout: float = 60.0,
        api_version: Optional[str] = None,
        default_headers: Optional[Mapping[str, str]] = None,
        transport: Optional[HTTPTransport] = None,
    ) -> None:
        if api_key is None:
            api_key = os.environ.get("SVC_API_KEY") or None
        if max_retries < 0:
            raise ValueError("max_retries must be >= 0")
        if timeout is not None and timeout <= 0:
            raise ValueError("timeout must be > 0 seconds")
        self._api_key = api_key
        self._given_base_url = base_url
        self._base_url = resolve_base_url(base_url, api_key)
        self._max_retries = int(max_retries)
        self._timeout = float(timeout)
        self._api_version = api_version or API_VERSION
        self._default_headers: Dict[str, str] = dict(default_headers or {})
        self._transport = transport or HTTPTransport()
        self._local = threading.local()
        self._init_resources()

    # ---- configuration ----

    @property
    def api_key(self) -> Optional[str]:
        return self._api_key

    @property
    def base_url(self) -> str:
        """Where requests go, ``…/v2`` or ``…/sandbox/v2`` included."""
        return self._base_url

    @property
    def max_retries(self) -> int:
        return self._max_retries

    @property
    def timeout(self) -> float:
        return self._timeout

    @property
    def api_version(self) -> str:
        return self._api_version

    @property
    def default_headers(self) -> Mapping[str, str]:
        return dict(self._default_headers)

    @property
    def last_response(self) -> Optional[APIResponse]:
        """The last response this thread received with this client (also after an error), or None."""
        return getattr(self._local, "response", None)

    def with_options(self, **overrides: Any) -> "Client":
        """A copy of this client with some settings changed: ``client.with_options(max_retries=0)``."""
        settings: Dict[str, Any] = {
            "api_key": self._api_key,
            "base_url": self._given_base_url,
            "max_retries": self._max_retries,
            "timeout": self._timeout,
            "api_version": self._api_version,
            "default_headers": self._default_headers,
            "transport": self._transport,
        }
        unknown = set(overrides) - set(settings)
        if unknown:
            raise TypeError("unknown client options: %s" % ", ".join(sorted(unknown)))
        settings.update(overrides)
        return Client(**settings)

    def close(self) -> None:
        """Nothing to release (urllib opens one connection per request); for ``with`` blocks."""

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __repr__(self) -> str:
        mode = "test" if (self._api_key or "").startswith("svc_test_") else "live"
        return "<svc.Client %s (%s mode, API %s)>" % (self._base_url, mode, self._api_version)

    # ---- the request pipeline (the generated methods call this) ----

    def _request(
        self,
        method: str,
        path: str,
        path_args: Sequence[Any],
        params: Optional[Mapping[str, Any]],
        kwargs: Optional[Mapping[str, Any]],
        *,
        query_keys: Sequence[str] = (),
        body: bool = False,
        kind: str = "json",
        accept: Optional[str] = None,
        idempotency_key: Optional[str] = None,
        api_key: Optional[str] = None,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        api_version: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
    ) -> Any:
        if params is not None and not isinstance(params, Mapping):
            raise TypeError("params must be a dict, not %s" % type(params).__name__)
        merged: Dict[str, Any] = dict(params or {})
        merged.update(kwargs or {})

        args = iter(path_args)

        def fill(_: Any) -> str:
            value = next(args)
            if value is None or value == "":
                raise ValueError("a path parameter of %s %s is empty" % (method, path))
            return quote(str(value), safe="")

        url_path = _PATH_PARAM.sub(fill, path)
        query: Dict[str, Any]
        payload: Optional[bytes] = None
        if method in ("GET", "DELETE"):
            query = merged
        else:
            query = {k: merged.pop(k) for k in query_keys if k in merged}
            if body or merged:
                payload = json.dumps(merged, separators=(",", ":"), ensure_ascii=False, default=_json_default).encode("utf-8")

        url = self._base_url + url_path
        pairs = encode_query(query)
        if pairs:
            url += "?" + urlencode(pairs)

        headers: Dict[str, str] = {
            "Accept": "text/event-stream" if kind == "stream" else ("%s, application/json;q=0.9" % accept if accept else "application/json"),
            "User-Agent": USER_AGENT,
            "Svc-Api-Version": api_version or self._api_version,
        }
        key = api_key or self._api_key
        if key:
            headers["Authorization"] = "Bearer %s" % key
        if payload is not None:
            headers["Content-Type"] = "application/json"
        if method in _WRITE_METHODS and kind != "stream":
            # One key per call, sent on every retry: the server applies the call once.
            headers["Idempotency-Key"] = idempotency_key or str(uuid.uuid4())
        elif idempotency_key:
            headers["Idempotency-Key"] = idempotency_key
        headers.update(self._default_headers)
        if extra_headers:
            headers.update(extra_headers)

        response, fp = self._transport.request(
            method,
            url,
            headers,
            payload,
            timeout=self._timeout if timeout is None else float(timeout),
            max_retries=self._max_retries if max_retries is None else int(max_retries),
            stream=kind == "stream",
        )
        self._local.response = response

        if response.status >= 400 or (response.status >= 300 and fp is None and response.status != 304):
            raise error_for_response(response.status, _problem(response), response.headers, response.body or b"")

        if kind == "stream":
            if fp is None:  # 204: a resumed stream with nothing left
                return Stream(response, None)
            return Stream(response, split_lines(fp), fp)

        data = _decode(response, raw=kind == "file")
        if kind == "page" and isinstance(data, dict):
            base = dict(query)

            def fetch(cursor: str) -> Page[Any]:
                return self._request(  # type: ignore[no-any-return]
                    method,
                    path,
                    path_args,
                    dict(base, cursor=cursor),
                    None,
                    query_keys=query_keys,
                    body=body,
                    kind="page",
                    api_key=api_key,
                    timeout=timeout,
                    max_retries=max_retries,
                    api_version=api_version,
                    extra_headers=extra_headers,
                )

            return Page(data, fetch, response)
        return data


def _json_default(value: Any) -> Any:
    if hasattr(value, "isoformat"):
        return value.isoformat()
    if isinstance(value, (set, frozenset, tuple)):
        return list(value)
    raise TypeError("%s is not JSON serializable" % type(value).__name__)


def _is_json(response: APIResponse) -> bool:
    ct = response.content_type
    return ct == "application/json" or ct.endswith("+json")


def _decode(response: APIResponse, raw: bool) -> Any:
    body = response.body or b""
    if response.status == 204 or not body:
        return None
    if _is_json(response):
        return json.loads(body.decode("utf-8"), object_hook=SvcObject)
    if raw:
        return body
    try:
        return json.loads(body.decode("utf-8"), object_hook=SvcObject)
    except ValueError:
        return body


def _problem(response: APIResponse) -> Optional[Dict[str, Any]]:
    try:
        parsed = json.loads((response.body or b"").decode("utf-8"))
    except ValueError:
        return None
    return parsed if isinstance(parsed, dict) else None


