<?php

declare(strict_types=1);

namespace Svc;

/** The raw HTTP answer of the last request: `$client->getLastResponse()`, `$page->response`, `$e->getHeaders()`. */
final class ApiResponse
{
    /**
     * @param array<string, string> $headers names in lower case; repeated headers joined with ", "
     */
    public function __construct(
        public readonly int $status,
        public readonly array $headers,
        public readonly string $body,
        public readonly string $method = '',
        public readonly string $url = '',
    ) {
    }

    /** A header by name (case-insensitive), or null. */
    public function header(string $name): ?string
    {
        return $this->headers[strtolower($name)] ?? null;
    }

    /** The X-Request-ID of the answer (`req_…`). */
    public function requestId(): ?string
    {
        return $this->header('x-request-id');
    }

    /** The body decoded as JSON (objects as associative arrays). */
    public function json(): mixed
    {
        return $this->body === '' ? null : json_decode($this->body, true, 512, JSON_THROW_ON_ERROR | JSON_BIGINT_AS_STRING);
    }
}
