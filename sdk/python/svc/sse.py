"""Server-Sent Events (text/event-stream), parsed as the HTML spec says.

A line ``event: <name>`` sets the event's name, ``data: <text>`` appends a line of data (several are joined
with ``\\n``), ``id: <id>`` sets the last event id, ``retry: <ms>`` the reconnection delay, a line starting
with ``:`` is a comment (the server's ``: ping``), and a blank line ends the event. ``data`` is parsed as
JSON when it parses, else left as the string.
"""
from __future__ import annotations

import json
from typing import Any, Dict, Iterable, Iterator, List, Optional

from ._http import APIResponse
from ._object import SvcObject

__all__ = ["ServerSentEvent", "Stream", "iter_events"]


class ServerSentEvent:
    """One event: ``event`` (``message`` when unnamed), ``data`` (JSON-parsed when it parses), ``id``
    (the last event id seen, to resume with ``Last-Event-ID``), ``retry`` (ms, or None) and ``raw_data``."""

    __slots__ = ("event", "data", "id", "retry", "raw_data")

    def __init__(self, event: str = "message", data: Any = None, id: Optional[str] = None, retry: Optional[int] = None, raw_data: str = "") -> None:
        self.event = event
        self.data = data
        self.id = id
        self.retry = retry
        self.raw_data = raw_data

    def __getitem__(self, key: str) -> Any:
        if key in self.__slots__:
            return getattr(self, key)
        raise KeyError(key)

    def to_dict(self) -> Dict[str, Any]:
        return {"event": self.event, "data": self.data, "id": self.id}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ServerSentEvent) and (self.event, self.data, self.id, self.retry) == (other.event, other.data, other.id, other.retry)

    def __repr__(self) -> str:
        return "ServerSentEvent(event=%r, id=%r, data=%r)" % (self.event, self.id, self.data)


def _decode(data: str) -> Any:
    try:
        return json.loads(data, object_hook=SvcObject)
    except ValueError:
        return data


def iter_events(lines: Iterable[Any]) -> Iterator[ServerSentEvent]:
    """The events in a stream of lines (bytes or str, with or without their line ending)."""
    event = ""
    data: List[str] = []
    last_id: Optional[str] = None
    retry: Optional[int] = None
    first = True
    for raw in lines:
        line = raw.decode("utf-8", "replace") if isinstance(raw, (bytes, bytearray)) else str(raw)
        if first:
            line = line.lstrip("\ufeff")
            first = False
        # A line ends with \r\n, \n or \r (a lone \r leaves several lines in one read).
        text = line[:-1] if line.endswith("\n") else line
        if text.endswith("\r"):
            text = text[:-1]
        for part in text.split("\r") if "\r" in text else (text,):
            if part == "":
                if data:
                    text = "\n".join(data)
                    yield ServerSentEvent(event or "message", _decode(text), last_id, retry, text)
                event, data = "", []
                continue
            if part.startswith(":"):
                continue
            name, sep, value = part.partition(":")
            if sep and value.startswith(" "):
                value = value[1:]
            if name == "event":
                event = value
            elif name == "data":
                data.append(value)
            elif name == "id":
                if "\0" not in value:
                    last_id = value
            elif name == "retry":
                if value.isdigit():
                    retry = int(value)
    # Per the spec, an event not ended by a blank line when the stream ends is dropped.


class Stream(Iterator[ServerSentEvent]):
    """The events of a streaming response, read as they arrive. Iterate it (once); it closes at the end, or
    call :meth:`close` (or use it in a ``with`` block) to stop early. ``response`` is the response's status and
    headers; ``last_event_id`` the id to resume from (``extra_headers={"Last-Event-ID": ...}``)."""

    def __init__(self, response: APIResponse, lines: Optional[Iterable[Any]], closer: Any = None) -> None:
        self.response = response
        self.last_event_id: Optional[str] = None
        self._closer = closer
        self._events = iter_events(lines if lines is not None else ())

    def __iter__(self) -> "Stream":
        return self

    def __next__(self) -> ServerSentEvent:
        try:
            ev = next(self._events)
        except StopIteration:
            self.close()
            raise
        except BaseException:
            self.close()
            raise
        if ev.id is not None:
            self.last_event_id = ev.id
        return ev

    def close(self) -> None:
        closer, self._closer = getattr(self, "_closer", None), None
        if closer is not None:
            try:
                closer.close()
            except Exception:
                pass

    def __enter__(self) -> "Stream":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __del__(self) -> None:
        self.close()
