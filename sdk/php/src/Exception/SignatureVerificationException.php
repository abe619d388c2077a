<?php

declare(strict_types=1);

namespace Svc\Exception;

/** A webhook whose signature, timestamp or body does not verify (see \Svc\Webhook). */
class SignatureVerificationException extends \UnexpectedValueException implements ExceptionInterface
{
}
