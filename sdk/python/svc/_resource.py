"""The base of the generated namespace classes (``client.leads``, ``client.inbox.conversations``…)."""
from __future__ import annotations

from typing import Any


class Resource:
    """A namespace of the API: holds the client its methods send requests with."""

    _client: Any

    def __init__(self, client: Any) -> None:
        self._client = client

    def __repr__(self) -> str:
        return "<%s>" % type(self).__name__
