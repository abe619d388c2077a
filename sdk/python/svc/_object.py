"""The API's JSON objects as Python values: dicts whose keys are also attributes."""
from __future__ import annotations

from typing import Any, List


class SvcObject(dict):  # type: ignore[type-arg]
    """A JSON object of the API: a ``dict`` (``bot["id"]``, ``json.dumps(bot)``, ``isinstance(bot, dict)``) whose
    keys are also attributes (``bot.id``, ``bot.handoff.action``), as Stripe's objects are. Nested objects are
    SvcObjects too. A key that is also a dict method's name (``items``, ``keys``, ``values``, ``get``…) is
    reached with ``obj["items"]``: the method wins. A missing key raises AttributeError (KeyError with ``[]``).
    """

    __slots__ = ()

    def __getattr__(self, name: str) -> Any:
        try:
            return self[name]
        except KeyError:
            raise AttributeError("%s has no attribute %r" % (type(self).__name__, name)) from None

    def __setattr__(self, name: str, value: Any) -> None:
        self[name] = value

    def __delattr__(self, name: str) -> None:
        try:
            del self[name]
        except KeyError:
            raise AttributeError(name) from None

    def __dir__(self) -> List[str]:
        return sorted(set(dir(type(self))) | {k for k in self if isinstance(k, str) and k.isidentifier()})
