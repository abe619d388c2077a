"""Pages of a list and the iteration over every item of every page.

A list answers ``{"object": "list", "data": [...], "has_more": bool, "next_cursor": str | None}``. The page
iterates over its own ``data``; :meth:`Page.auto_paging_iter` goes on to the next pages, passing the same
params with ``cursor=next_cursor`` until ``has_more`` is false.
"""
from __future__ import annotations

from typing import Any, Callable, Dict, Generic, Iterator, List, Optional, TypeVar, Union, overload

from ._http import APIResponse

__all__ = ["Page"]

T = TypeVar("T")


class Page(Generic[T]):
    """One page of a list. Also reads like the dict the API answered: ``page["has_more"]``."""

    def __init__(self, body: Dict[str, Any], fetch: Optional[Callable[[str], "Page[T]"]] = None, response: Optional[APIResponse] = None) -> None:
        self._body = body
        self._fetch = fetch
        self.last_response = response

    @property
    def data(self) -> List[T]:
        """The items of this page."""
        return self._body.get("data") or []

    @property
    def has_more(self) -> bool:
        return bool(self._body.get("has_more"))

    @property
    def next_cursor(self) -> Optional[str]:
        return self._body.get("next_cursor")

    @property
    def object(self) -> str:
        return str(self._body.get("object", "list"))

    def to_dict(self) -> Dict[str, Any]:
        """The page as the API answered it."""
        return self._body

    def has_next_page(self) -> bool:
        return self.has_more and bool(self.next_cursor)

    def next_page(self) -> Optional["Page[T]"]:
        """The next page, or None after the last one."""
        if not self.has_next_page() or self._fetch is None:
            return None
        return self._fetch(str(self.next_cursor))

    def iter_pages(self) -> Iterator["Page[T]"]:
        """This page and every one after it."""
        page: Optional[Page[T]] = self
        while page is not None:
            yield page
            page = page.next_page()

    def auto_paging_iter(self) -> Iterator[T]:
        """Every item of this page and of every page after it (fetched as the iteration reaches them)."""
        for page in self.iter_pages():
            for item in page.data:
                yield item

    def __iter__(self) -> Iterator[T]:
        return iter(self.data)

    def __len__(self) -> int:
        return len(self.data)

    def __bool__(self) -> bool:
        return True

    @overload
    def __getitem__(self, key: int) -> T: ...

    @overload
    def __getitem__(self, key: str) -> Any: ...

    def __getitem__(self, key: Union[int, str, slice]) -> Any:
        if isinstance(key, str):
            return self._body[key]
        return self.data[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self._body.get(key, default)

    def __repr__(self) -> str:
        return "<Page of %d (has_more=%s, next_cursor=%r)>" % (len(self.data), self.has_more, self.next_cursor)
