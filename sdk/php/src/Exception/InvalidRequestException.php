<?php

declare(strict_types=1);

namespace Svc\Exception;

/** HTTP 400 (and 4xx without a class of their own): the request is malformed. */
class InvalidRequestException extends ApiException
{
}
