"""The official Python client of the Conversational Automation Service API.

>>> import svc
>>> client = svc.Client(api_key="svc_live_...")
>>> for lead in client.leads.list({"limit": 50}).auto_paging_iter():
...     print(lead["id"])
"""
from ._client import Client, resolve_base_url
from ._generated import models, params
from ._http import APIResponse, Headers
from ._object import SvcObject
from ._version import API_VERSION, DEFAULT_BASE_URL, VERSION, __version__
from .errors import (
    APIConnectionError,
    APIError,
    APITimeoutError,
    AuthenticationError,
    ConflictError,
    InvalidRequestError,
    NotFoundError,
    PermissionDeniedError,
    RateLimitError,
    ServerError,
    SignatureVerificationError,
    SvcError,
    ValidationError,
)
from .pagination import Page
from .sse import ServerSentEvent, Stream
from .webhook import Webhook, WebhookSignature

__all__ = [
    "API_VERSION",
    "APIConnectionError",
    "APIError",
    "APIResponse",
    "APITimeoutError",
    "AuthenticationError",
    "Client",
    "ConflictError",
    "DEFAULT_BASE_URL",
    "Headers",
    "InvalidRequestError",
    "NotFoundError",
    "Page",
    "PermissionDeniedError",
    "RateLimitError",
    "ServerError",
    "ServerSentEvent",
    "SignatureVerificationError",
    "Stream",
    "SvcError",
    "SvcObject",
    "VERSION",
    "ValidationError",
    "Webhook",
    "WebhookSignature",
    "__version__",
    "models",
    "params",
    "resolve_base_url",
]
