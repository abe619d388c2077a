<?php

declare(strict_types=1);

namespace Svc;

use Svc\Exception\ApiException;
use Svc\Exception\InvalidArgumentException;
use Svc\Generated\ClientServices;

/**
 * The client. Every operation of the API is a method of a namespace, as the API's paths name them:
 *
 *     $client = new \Svc\SvcClient('svc_live_…');
 *     $lead = $client->leads->create(['email' => 'ada@example.com']);
 *     $client->inbox->conversations->messages->send($conversationId, ['content' => 'hi']);
 *     foreach ($client->leads->list(['limit' => 50])->autoPagingIterator() as $lead) { … }
 *
 * Responses are JSON objects decoded as associative arrays (field names exactly as the API spells them).
 * Options (the second argument, or the only one as an array with `api_key`):
 * - api_key: `svc_live_…` or `svc_test_…` (default: the SVC_API_KEY environment variable);
 * - base_url: the API's origin (default https://api.example.com); `/v2` (live keys) or `/sandbox/v2` (test
 *   keys) is appended unless it already ends with one of them;
 * - api_version: sent as Svc-Api-Version (default Version::API_VERSION, the version this client was made from);
 * - timeout: seconds per attempt (default 60); connect_timeout: seconds (default 30);
 * - max_retries: retries on network errors, 429 and 5xx (default 2);
 * - headers: extra headers on every request; http_client: an \Svc\HttpClient (tests).
 * Each method's last argument takes per-request options: idempotency_key, timeout, max_retries, api_version,
 * api_key, headers.
 */
final class SvcClient
{
    use ClientServices;

    public const DEFAULT_TIMEOUT = 60.0;
    public const DEFAULT_CONNECT_TIMEOUT = 30.0;
    public const DEFAULT_MAX_RETRIES = 2;
    public const OPTIONS = ['api_key', 'base_url', 'api_version', 'timeout', 'connect_timeout', 'max_retries', 'headers', 'http_client'];
    public const REQUEST_OPTIONS = ['idempotency_key', 'timeout', 'max_retries', 'api_version', 'api_key', 'headers'];

    /** @var array{api_key: ?string, base_url: string, api_version: string, timeout: float, max_retries: int, headers: array<string, string>} */
    private array $config;

    private HttpClient $http;

    private ?ApiResponse $lastResponse = null;

    /**
     * @param string|array<string, mixed>|null $apiKey the API key, or all the options (with `api_key`)
     * @param array<string, mixed> $options
     */
    public function __construct(string|array|null $apiKey = null, array $options = [])
    {
        if (is_array($apiKey)) {
            $options = $apiKey + $options;
            $apiKey = null;
        }
        $unknown = array_diff(array_keys($options), self::OPTIONS);
        if ($unknown !== []) {
            throw new InvalidArgumentException('Unknown option(s) ' . implode(', ', $unknown) . '; known: ' . implode(', ', self::OPTIONS));
        }
        $key = $apiKey ?? $options['api_key'] ?? null;
        if ($key === null) {
            $env = getenv('SVC_API_KEY');
            $key = is_string($env) && $env !== '' ? $env : null;
        }
        $http = $options['http_client'] ?? new HttpClient(null, (float) ($options['connect_timeout'] ?? self::DEFAULT_CONNECT_TIMEOUT));
        if (!$http instanceof HttpClient) {
            throw new InvalidArgumentException('http_client must be an \Svc\HttpClient');
        }
        $this->http = $http;
        $this->config = [
            'api_key' => $key,
            'base_url' => (string) ($options['base_url'] ?? Version::DEFAULT_BASE_URL),
            'api_version' => (string) ($options['api_version'] ?? Version::API_VERSION),
            'timeout' => (float) ($options['timeout'] ?? self::DEFAULT_TIMEOUT),
            'max_retries' => max(0, (int) ($options['max_retries'] ?? self::DEFAULT_MAX_RETRIES)),
            'headers' => self::stringHeaders($options['headers'] ?? []),
        ];
        $this->initServices();
    }

    /** The raw answer (status, headers, body, request id) of the last request this client made. */
    public function getLastResponse(): ?ApiResponse
    {
        return $this->lastResponse;
    }

    /** The base URL requests go to with this client's key (…/v2 or …/sandbox/v2). */
    public function getBaseUrl(): string
    {
        return self::baseUrlFor($this->config['base_url'], $this->config['api_key']);
    }

    /** The API version this client pins (Svc-Api-Version). */
    public function getApiVersion(): string
    {
        return $this->config['api_version'];
    }

    /**
     * The base URL for a key: the given one as-is when it ends with /v2 or /sandbox/v2, else with /sandbox/v2
     * appended for `svc_test_` keys and /v2 for any other.
     */
    public static function baseUrlFor(string $baseUrl, ?string $apiKey): string
    {
        $base = rtrim($baseUrl, '/');
        if (preg_match('#/(sandbox/)?v2$#', $base)) {
            return $base;
        }
        return $base . (str_starts_with((string) $apiKey, 'svc_test_') ? '/sandbox/v2' : '/v2');
    }

    /**
     * Any request by path, relative to the base URL (`/leads`): `$params` is the query string (GET, DELETE) or the
     * JSON body (POST, PUT, PATCH). Answers the decoded JSON (null for 204).
     *
     * @param array<string, mixed>|null $params
     * @param array<string, mixed> $opts idempotency_key, timeout, max_retries, api_version, api_key, headers
     * @param array<string, mixed> $spec what the generated methods say of their operation (paginated, stream, file…)
     * @throws ApiException
     */
    public function request(string $method, string $path, ?array $params = null, array $opts = [], array $spec = []): mixed
    {
        $method = strtoupper($method);
        $unknown = array_diff(array_keys($opts), self::REQUEST_OPTIONS);
        if ($unknown !== []) {
            throw new InvalidArgumentException('Unknown request option(s) ' . implode(', ', $unknown) . '; known: ' . implode(', ', self::REQUEST_OPTIONS));
        }
        $apiKey = $opts['api_key'] ?? $this->config['api_key'];
        $public = !empty($spec['public']);
        if (($apiKey === null || $apiKey === '') && !$public) {
            throw new InvalidArgumentException('No API key: pass one to new \Svc\SvcClient(\'svc_live_…\') or set SVC_API_KEY');
        }
        $stream = !empty($spec['stream']);
        $url = self::baseUrlFor($this->config['base_url'], $apiKey) . '/' . ltrim($path, '/');
        $bodyMethod = in_array($method, ['POST', 'PUT', 'PATCH'], true);
        $body = null;
        if ($bodyMethod) {
            if ($params !== null && ($params !== [] || !empty($spec['body']))) {
                $body = self::encodeJson($params);
            } elseif (!empty($spec['body'])) {
                $body = '{}';
            }
        } elseif ($params) {
            $query = self::encodeQuery($params);
            if ($query !== '') {
                $url .= (str_contains($url, '?') ? '&' : '?') . $query;
            }
        }

        $headers = [
            'Accept' => $stream ? 'text/event-stream' : (isset($spec['file']) && !isset($params['format']) ? (string) $spec['file'] : 'application/json'),
            'User-Agent' => self::userAgent(),
            'Svc-Api-Version' => (string) ($opts['api_version'] ?? $this->config['api_version']),
        ];
        if (!$public) {
            $headers['Authorization'] = 'Bearer ' . $apiKey;
        }
        if ($body !== null) {
            $headers['Content-Type'] = 'application/json';
        }
        if (in_array($method, ['POST', 'PUT', 'PATCH', 'DELETE'], true) && !$stream) {
            // One key per call, the same on every retry: the server replays the first answer.
            $headers['Idempotency-Key'] = (string) ($opts['idempotency_key'] ?? self::uuid4());
        }
        $headers = self::mergeHeaders($headers, $this->config['headers'], self::stringHeaders($opts['headers'] ?? []));
        $timeout = (float) ($opts['timeout'] ?? $this->config['timeout']);
        $maxRetries = max(0, (int) ($opts['max_retries'] ?? $this->config['max_retries']));

        if ($stream) {
            [$response, $chunks] = $this->http->stream($method, $url, $headers, $body, $timeout, $maxRetries);
            $this->lastResponse = $response;
            if ($response->status >= 400 || $chunks === null) {
                throw ApiException::fromResponse($response);
            }
            return Sse::events($chunks);
        }

        $response = $this->http->request($method, $url, $headers, $body, $timeout, $maxRetries);
        $this->lastResponse = $response;
        if ($response->status >= 400) {
            throw ApiException::fromResponse($response);
        }
        if ($response->status === 204 || $response->body === '') {
            return null;
        }
        $type = strtolower($response->header('content-type') ?? '');
        $json = str_contains($type, 'json');
        if (!$json && (isset($spec['file']) || $type !== '')) {
            return $response->body; // a file (audio, PDF) or text: the bytes as they came
        }
        try {
            return json_decode($response->body, true, 512, JSON_THROW_ON_ERROR | JSON_BIGINT_AS_STRING);
        } catch (\JsonException $e) {
            throw new ApiException("HTTP {$response->status}: the answer is not valid JSON: {$e->getMessage()}", $response->status, null, null, null, [], $response->requestId(), $response->headers, $response->body, null, null, $e);
        }
    }

    /**
     * What the generated methods call: the path's parameters filled in, then request(), or a Page for a list.
     *
     * @internal
     * @param array<string, string> $pathParams
     * @param array<string, mixed>|null $params
     * @param array<string, mixed> $opts
     * @param array<string, mixed> $spec
     */
    public function callOperation(string $method, string $path, array $pathParams, ?array $params, array $opts, array $spec): mixed
    {
        $filled = preg_replace_callback('/\{([^}]+)\}/', static function (array $m) use ($pathParams, $spec): string {
            $value = $pathParams[$m[1]] ?? null;
            if ($value === null || $value === '') {
                throw new InvalidArgumentException(sprintf('%s: the path parameter %s is empty', $spec['operation'] ?? 'request', $m[1]));
            }
            return rawurlencode((string) $value);
        }, $path);
        if (!empty($spec['paginated']) && !in_array($method, ['POST', 'PUT', 'PATCH'], true)) {
            return $this->fetchPage($method, (string) $filled, $params ?? [], $opts, $spec);
        }
        return $this->request($method, (string) $filled, $params, $opts, $spec);
    }

    /**
     * @param array<string, mixed> $params
     * @param array<string, mixed> $opts
     * @param array<string, mixed> $spec
     */
    private function fetchPage(string $method, string $path, array $params, array $opts, array $spec): Page
    {
        $body = $this->request($method, $path, $params, $opts, $spec);
        if (!is_array($body)) {
            throw new ApiException('Expected a list, got ' . get_debug_type($body), $this->lastResponse?->status);
        }
        $fetch = fn (array $next): Page => $this->fetchPage($method, $path, $next, $opts, $spec);
        return new Page($body, \Closure::fromCallable($fetch), $params, $this->lastResponse);
    }

    /**
     * The query string: lists as repeated keys (`tag=a&tag=b`), booleans as true/false, nulls left out, maps as
     * `key[sub]=value`.
     *
     * @param array<string, mixed> $params
     */
    public static function encodeQuery(array $params): string
    {
        $parts = [];
        foreach ($params as $key => $value) {
            self::queryPart((string) $key, $value, $parts);
        }
        return implode('&', $parts);
    }

    /** @param list<string> $parts */
    private static function queryPart(string $key, mixed $value, array &$parts): void
    {
        if ($value === null) {
            return;
        }
        if (is_array($value)) {
            foreach ($value as $k => $v) {
                self::queryPart(array_is_list($value) ? $key : "{$key}[{$k}]", $v, $parts);
            }
            return;
        }
        $string = match (true) {
            is_bool($value) => $value ? 'true' : 'false',
            $value instanceof \DateTimeInterface => $value->format(DATE_RFC3339_EXTENDED),
            $value instanceof \BackedEnum => (string) $value->value,
            default => (string) $value,
        };
        $parts[] = rawurlencode($key) . '=' . rawurlencode($string);
    }

    /** @param array<mixed> $params */
    private static function encodeJson(array $params): string
    {
        try {
            return json_encode($params === [] ? new \stdClass() : $params, JSON_THROW_ON_ERROR | JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE | JSON_PRESERVE_ZERO_FRACTION);
        } catch (\JsonException $e) {
            throw new InvalidArgumentException('The parameters cannot be encoded as JSON: ' . $e->getMessage(), 0, $e);
        }
    }

    /** `svc-php/2.4.0 (php 8.2.1; curl 8.5.0)` */
    public static function userAgent(): string
    {
        $curl = curl_version();
        return sprintf('svc-php/%s (php %s; curl %s)', Version::SDK_VERSION, PHP_VERSION, is_array($curl) ? ($curl['version'] ?? '?') : '?');
    }

    /** A random (version 4) UUID, as Idempotency-Key. */
    public static function uuid4(): string
    {
        $b = random_bytes(16);
        $b[6] = chr((ord($b[6]) & 0x0f) | 0x40);
        $b[8] = chr((ord($b[8]) & 0x3f) | 0x80);
        return vsprintf('%s%s-%s-%s-%s-%s%s%s', str_split(bin2hex($b), 4));
    }

    /**
     * @param mixed $headers
     * @return array<string, string>
     */
    private static function stringHeaders(mixed $headers): array
    {
        if (!is_array($headers)) {
            throw new InvalidArgumentException('headers must be an array of name => value');
        }
        $out = [];
        foreach ($headers as $name => $value) {
            if (!is_string($name) || preg_match('/[\r\n:]/', $name) || preg_match('/[\r\n]/', (string) $value)) {
                throw new InvalidArgumentException("Invalid header $name");
            }
            $out[$name] = (string) $value;
        }
        return $out;
    }

    /**
     * Later sets win, names compared without case.
     *
     * @param array<string, string> ...$sets
     * @return array<string, string>
     */
    private static function mergeHeaders(array ...$sets): array
    {
        $byLower = [];
        foreach ($sets as $set) {
            foreach ($set as $name => $value) {
                $byLower[strtolower($name)] = [$name, $value];
            }
        }
        $out = [];
        foreach ($byLower as [$name, $value]) {
            $out[$name] = $value;
        }
        return $out;
    }
}
