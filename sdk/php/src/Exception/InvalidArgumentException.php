<?php

declare(strict_types=1);

namespace Svc\Exception;

/** A misuse of the client detected before any request: an unknown option, a missing API key, an empty path parameter. */
class InvalidArgumentException extends \InvalidArgumentException implements ExceptionInterface
{
}
