<?php

declare(strict_types=1);

namespace Svc;

/**
 * What every generated service (src/Generated/Services) extends: its operations hand their path, parameters and
 * options to the client.
 */
abstract class AbstractService
{
    public function __construct(protected readonly SvcClient $client)
    {
    }

    /**
     * @param array<string, string> $pathParams
     * @param array<string, mixed>|null $params
     * @param array<string, mixed> $opts
     * @param array<string, mixed> $spec
     */
    protected function callOperation(string $method, string $path, array $pathParams, ?array $params, array $opts, array $spec): mixed
    {
        return $this->client->callOperation($method, $path, $pathParams, $params, $opts, $spec);
    }
}
