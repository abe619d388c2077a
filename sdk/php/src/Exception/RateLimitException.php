<?php

declare(strict_types=1);

namespace Svc\Exception;

/** HTTP 429: too many requests (retried first, honouring Retry-After, max_retries times). */
class RateLimitException extends ApiException
{
}
