<?php

declare(strict_types=1);

namespace Svc\Exception;

/** The request took longer than its `timeout` (seconds), or an event stream was silent that long. */
class ApiTimeoutException extends ApiConnectionException
{
}
