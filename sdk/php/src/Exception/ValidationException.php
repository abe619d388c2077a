<?php

declare(strict_types=1);

namespace Svc\Exception;

/** HTTP 422: the body or query failed validation; getErrors() lists the fields ({pointer, detail}). */
class ValidationException extends InvalidRequestException
{
}
