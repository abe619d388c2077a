<?php

declare(strict_types=1);

namespace Svc;

/**
 * One page of a list (`{object: "list", data, has_more, next_cursor}`). Iterating the page (`foreach ($page as
 * $item)`) walks its own items; autoPagingIterator() walks every item of every page, fetching the next page
 * (the same query, `cursor` = next_cursor) until has_more is false. `$page['has_more']` reads the raw body.
 *
 * @template T
 * @implements \IteratorAggregate<int, T>
 * @implements \ArrayAccess<string, mixed>
 */
final class Page implements \IteratorAggregate, \Countable, \ArrayAccess, \JsonSerializable
{
    /** @var list<T> */
    public readonly array $data;
    public readonly bool $hasMore;
    public readonly ?string $nextCursor;

    /**
     * @param array<string, mixed> $body the decoded list
     * @param \Closure(array<string, mixed>): Page<T> $fetch fetches a page for these query parameters
     * @param array<string, mixed> $params the query this page was fetched with
     */
    public function __construct(
        public readonly array $body,
        private readonly \Closure $fetch,
        public readonly array $params = [],
        public readonly ?ApiResponse $response = null,
    ) {
        $this->data = array_values(is_array($body['data'] ?? null) ? $body['data'] : []);
        $this->hasMore = (bool) ($body['has_more'] ?? false);
        $cursor = $body['next_cursor'] ?? null;
        $this->nextCursor = is_string($cursor) && $cursor !== '' ? $cursor : null;
    }

    /** The next page, or null on the last one. */
    public function nextPage(): ?self
    {
        if (!$this->hasMore || $this->nextCursor === null) {
            return null;
        }
        return ($this->fetch)(['cursor' => $this->nextCursor] + $this->params);
    }

    /**
     * Every item of this page and of the pages after it, fetched as the iteration reaches them.
     *
     * @return \Generator<int, T>
     */
    public function autoPagingIterator(): \Generator
    {
        $page = $this;
        $n = 0;
        while ($page !== null) {
            foreach ($page->data as $item) {
                yield $n++ => $item;
            }
            $page = $page->nextPage();
        }
    }

    /** @return \ArrayIterator<int, T> this page's items */
    public function getIterator(): \ArrayIterator
    {
        return new \ArrayIterator($this->data);
    }

    public function count(): int
    {
        return count($this->data);
    }

    public function isEmpty(): bool
    {
        return $this->data === [];
    }

    /** @return array<string, mixed> */
    public function toArray(): array
    {
        return $this->body;
    }

    /** @return array<string, mixed> */
    public function jsonSerialize(): array
    {
        return $this->body;
    }

    public function offsetExists(mixed $offset): bool
    {
        return isset($this->body[$offset]);
    }

    public function offsetGet(mixed $offset): mixed
    {
        return $this->body[$offset] ?? null;
    }

    public function offsetSet(mixed $offset, mixed $value): void
    {
        throw new \LogicException('A page is read-only');
    }

    public function offsetUnset(mixed $offset): void
    {
        throw new \LogicException('A page is read-only');
    }
}
