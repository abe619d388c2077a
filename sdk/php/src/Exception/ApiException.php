<?php

declare(strict_types=1);

namespace Svc\Exception;

use Svc\ApiResponse;

/**
 * An error answer of the API (a problem details body, RFC 9457), or no answer at all (ApiConnectionException).
 * The subclass says which: InvalidRequestException (400, other 4xx), ValidationException (422),
 * AuthenticationException (401), PermissionException (403), NotFoundException (404), ConflictException (409),
 * RateLimitException (429), ServerException (5xx).
 *
 * getCode() is the HTTP status (0 without an answer); the API's string code is getErrorCode() / $errorCode.
 */
class ApiException extends \RuntimeException implements ExceptionInterface
{
    /**
     * @param list<array{pointer: string, detail: string}> $errors
     * @param array<string, string> $headers
     * @param array<string, mixed>|null $problem
     */
    public function __construct(
        string $message,
        public readonly ?int $status = null,
        public readonly ?string $errorCode = null,
        public readonly ?string $title = null,
        public readonly ?string $detail = null,
        public readonly array $errors = [],
        public readonly ?string $requestId = null,
        public readonly array $headers = [],
        public readonly ?string $body = null,
        public readonly ?string $type = null,
        public readonly ?array $problem = null,
        ?\Throwable $previous = null,
    ) {
        parent::__construct($message, $status ?? 0, $previous);
    }

    /** The exception for an error response: the class by status, the fields from the problem body. */
    public static function fromResponse(ApiResponse $response): self
    {
        $problem = null;
        if ($response->body !== '') {
            try {
                $decoded = json_decode($response->body, true, 512, JSON_THROW_ON_ERROR);
                $problem = is_array($decoded) ? $decoded : null;
            } catch (\JsonException) {
                $problem = null;
            }
        }
        $str = static fn (string $key): ?string => isset($problem[$key]) && is_scalar($problem[$key]) ? (string) $problem[$key] : null;
        $errors = [];
        foreach (is_array($problem['errors'] ?? null) ? $problem['errors'] : [] as $e) {
            if (is_array($e)) {
                $errors[] = ['pointer' => (string) ($e['pointer'] ?? ''), 'detail' => (string) ($e['detail'] ?? '')];
            }
        }
        $status = $response->status;
        $code = $str('code');
        $title = $str('title');
        $detail = $str('detail');
        $requestId = $str('request_id') ?? $response->header('x-request-id');
        $message = sprintf(
            'HTTP %d%s: %s%s',
            $status,
            $code !== null ? " $code" : '',
            $detail ?? $title ?? ($response->body !== '' ? substr($response->body, 0, 200) : 'no body'),
            $requestId !== null ? " (request $requestId)" : '',
        );
        $class = match (true) {
            $status === 401 => AuthenticationException::class,
            $status === 403 => PermissionException::class,
            $status === 404 => NotFoundException::class,
            $status === 409 => ConflictException::class,
            $status === 422 => ValidationException::class,
            $status === 429 => RateLimitException::class,
            $status >= 500 => ServerException::class,
            $status >= 400 => InvalidRequestException::class,
            default => self::class,
        };
        return new $class($message, $status, $code, $title, $detail, $errors, $requestId, $response->headers, $response->body, $str('type'), $problem);
    }

    /** The HTTP status; null when the API did not answer. */
    public function getHttpStatus(): ?int
    {
        return $this->status;
    }

    /** The API's error code (`resource_not_found`, `validation_failed`, …). */
    public function getErrorCode(): ?string
    {
        return $this->errorCode;
    }

    public function getTitle(): ?string
    {
        return $this->title;
    }

    public function getDetail(): ?string
    {
        return $this->detail;
    }

    /**
     * The field errors of a 400/422: each `pointer` (a JSON pointer into the body or query) and `detail`.
     *
     * @return list<array{pointer: string, detail: string}>
     */
    public function getErrors(): array
    {
        return $this->errors;
    }

    /** `req_…`: quote it to support. From the problem body, else the X-Request-ID header. */
    public function getRequestId(): ?string
    {
        return $this->requestId;
    }

    /** @return array<string, string> the response headers, names in lower case */
    public function getHeaders(): array
    {
        return $this->headers;
    }

    /** The raw response body. */
    public function getHttpBody(): ?string
    {
        return $this->body;
    }

    /** @return array<string, mixed>|null the whole problem details body, decoded */
    public function getProblem(): ?array
    {
        return $this->problem;
    }
}
