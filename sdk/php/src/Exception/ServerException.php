<?php

declare(strict_types=1);

namespace Svc\Exception;

/** HTTP 5xx: the server failed (500, 502, 503 and 504 are retried first). */
class ServerException extends ApiException
{
}
