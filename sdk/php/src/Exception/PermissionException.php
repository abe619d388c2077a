<?php

declare(strict_types=1);

namespace Svc\Exception;

/** HTTP 403: the key lacks the scope, or the workspace the feature. */
class PermissionException extends ApiException
{
}
