<?php

declare(strict_types=1);

namespace Svc\Exception;

/** HTTP 409: the state does not allow it, or the Idempotency-Key is in use or was used for another request. */
class ConflictException extends ApiException
{
}
