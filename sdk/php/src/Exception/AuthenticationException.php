<?php

declare(strict_types=1);

namespace Svc\Exception;

/** HTTP 401: the API key is missing, unknown, revoked or for the other environment. */
class AuthenticationException extends ApiException
{
}
