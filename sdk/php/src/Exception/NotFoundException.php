<?php

declare(strict_types=1);

namespace Svc\Exception;

/** HTTP 404: no such object (in this workspace and environment). */
class NotFoundException extends ApiException
{
}
