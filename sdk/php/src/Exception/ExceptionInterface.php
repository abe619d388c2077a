<?php

declare(strict_types=1);

namespace Svc\Exception;

/** Implemented by every exception this client throws: `catch (\Svc\Exception\ExceptionInterface $e)` catches them all. */
interface ExceptionInterface extends \Throwable
{
}
