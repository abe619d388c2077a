"""The errors the client raises.

Every failed API call raises a subclass of :class:`APIError`, chosen by the HTTP status; network failures raise
:class:`APIConnectionError` (or :class:`APITimeoutError`); a webhook that fails verification raises
:class:`SignatureVerificationError`. All of them derive from :class:`SvcError`.
"""
from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional, Type

__all__ = [
    "SvcError",
    "APIError",
    "InvalidRequestError",
    "ValidationError",
    "AuthenticationError",
    "PermissionDeniedError",
    "NotFoundError",
    "ConflictError",
    "RateLimitError",
    "ServerError",
    "APIConnectionError",
    "APITimeoutError",
    "SignatureVerificationError",
    "error_for_response",
]


class SvcError(Exception):
    """The base of every error this library raises."""

    def __init__(self, message: str = "") -> None:
        super().__init__(message)
        self.message = message


class APIError(SvcError):
    """The API answered an error: a problem details body (RFC 9457, ``application/problem+json``).

    Attributes: ``status`` (HTTP status), ``code`` (the stable machine code, e.g. ``resource_not_found``),
    ``title``, ``detail``, ``type``, ``instance``, ``errors`` (field errors: a list of ``{"pointer", "detail"}``),
    ``request_id`` (from the problem body, else the ``X-Request-ID`` header), ``headers`` (the response
    headers, case-insensitive), ``body`` (the raw bytes) and ``problem`` (the parsed body, or None).
    """

    status: int
    code: Optional[str]
    title: Optional[str]
    detail: Optional[str]
    type: Optional[str]
    instance: Optional[str]
    errors: List[Dict[str, Any]]
    request_id: Optional[str]
    headers: Mapping[str, str]
    body: bytes
    problem: Optional[Dict[str, Any]]

    def __init__(
        self,
        status: int,
        problem: Optional[Dict[str, Any]] = None,
        headers: Optional[Mapping[str, str]] = None,
        body: bytes = b"",
    ) -> None:
        p: Dict[str, Any] = problem if isinstance(problem, dict) else {}
        self.status = status
        self.problem = problem if isinstance(problem, dict) else None
        self.code = _str(p.get("code"))
        self.title = _str(p.get("title"))
        self.detail = _str(p.get("detail"))
        self.type = _str(p.get("type"))
        self.instance = _str(p.get("instance"))
        errs = p.get("errors")
        self.errors = [e for e in errs if isinstance(e, dict)] if isinstance(errs, list) else []
        self.headers = headers if headers is not None else {}
        self.request_id = _str(p.get("request_id")) or _str(self.headers.get("x-request-id"))
        self.body = body
        text = self.detail or self.title
        if not text and body:
            text = body[:200].decode("utf-8", "replace")
        message = "%s%s: %s" % (status, " " + self.code if self.code else "", text or "HTTP error")
        if self.errors:
            message += " (%s)" % "; ".join("%s: %s" % (e.get("pointer", ""), e.get("detail", "")) for e in self.errors)
        if self.request_id:
            message += " [request %s]" % self.request_id
        super().__init__(message)

    def __repr__(self) -> str:
        return "%s(status=%r, code=%r, request_id=%r)" % (type(self).__name__, self.status, self.code, self.request_id)


class InvalidRequestError(APIError):
    """400 (and any other 4xx without a class of its own): the request is not acceptable."""


class ValidationError(InvalidRequestError):
    """422: the body or query failed validation; ``errors`` lists the fields (``pointer``, ``detail``)."""


class AuthenticationError(APIError):
    """401: no API key, an unknown or revoked one, or a key of the wrong environment."""


class PermissionDeniedError(APIError):
    """403: the key lacks the scope, or the plan the feature."""


class NotFoundError(APIError):
    """404: no such object (in this workspace and mode)."""


class ConflictError(APIError):
    """409: the object's state forbids it, or an Idempotency-Key is in use or reused with another body."""


class RateLimitError(APIError):
    """429: too many requests; retried automatically (honouring ``Retry-After``) until max_retries."""


class ServerError(APIError):
    """5xx: the server failed; retried automatically (500, 502, 503, 504) until max_retries."""


class APIConnectionError(SvcError):
    """The request never got an answer: connection refused or reset, DNS failure, TLS error…"""

    def __init__(self, message: str = "Connection error", cause: Optional[BaseException] = None) -> None:
        super().__init__(message)
        self.cause = cause


class APITimeoutError(APIConnectionError):
    """The server did not answer within ``timeout`` seconds."""


class SignatureVerificationError(SvcError):
    """A webhook's signature is missing, malformed, wrong, or its timestamp is outside the tolerance."""

    def __init__(self, message: str, header: Optional[str] = None) -> None:
        super().__init__(message)
        self.header = header


def _str(v: Any) -> Optional[str]:
    return v if isinstance(v, str) else None


def error_for_response(status: int, problem: Optional[Dict[str, Any]], headers: Mapping[str, str], body: bytes) -> APIError:
    """The error class for an HTTP status."""
    cls: Type[APIError]
    if status == 422:
        cls = ValidationError
    elif status == 401:
        cls = AuthenticationError
    elif status == 403:
        cls = PermissionDeniedError
    elif status == 404:
        cls = NotFoundError
    elif status == 409:
        cls = ConflictError
    elif status == 429:
        cls = RateLimitError
    elif status >= 500:
        cls = ServerError
    elif 400 <= status < 500:
        cls = InvalidRequestError
    else:
        cls = APIError
    return cls(status, problem, headers, body)
