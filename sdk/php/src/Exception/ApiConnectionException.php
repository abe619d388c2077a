<?php

declare(strict_types=1);

namespace Svc\Exception;

/**
 * No answer from the API: the connection was refused or reset, the name did not resolve, TLS failed, or the
 * server closed the connection without answering (retried first, max_retries times). getHttpStatus() is null.
 */
class ApiConnectionException extends ApiException
{
    public function __construct(string $message, public readonly ?int $curlErrno = null, ?\Throwable $previous = null)
    {
        parent::__construct($message, previous: $previous);
    }
}
