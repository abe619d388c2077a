<?php

declare(strict_types=1);

namespace Svc;

use Svc\Exception\ApiConnectionException;
use Svc\Exception\ApiTimeoutException;

/**
 * The transport: one request with curl, retried on network errors and on 429/500/502/503/504 with exponential
 * backoff (0.5 s × 2^n, at most 8 s, with jitter) or the answer's Retry-After (seconds or an HTTP date, at most
 * 60 s). The caller sends the same headers (so the same Idempotency-Key) on every attempt. Event streams are
 * read as they arrive (curl_multi), each chunk handed to the caller.
 */
class HttpClient
{
    public const RETRY_STATUSES = [429, 500, 502, 503, 504];
    public const BACKOFF_BASE = 0.5;
    public const BACKOFF_MAX = 8.0;
    public const RETRY_AFTER_MAX = 60.0;

    private ?\CurlHandle $handle = null;

    /** @var \Closure(float): void */
    private \Closure $sleep;

    /** @var list<array{attempt: int, delay: float, reason: string}> the retries of the last request() */
    public array $lastRetries = [];

    /**
     * @param (callable(float): void)|null $sleep how to wait between attempts (seconds); tests pass their own
     */
    public function __construct(?callable $sleep = null, private readonly float $connectTimeout = 30.0)
    {
        $this->sleep = $sleep !== null ? \Closure::fromCallable($sleep) : static function (float $seconds): void {
            if ($seconds > 0) {
                usleep((int) round($seconds * 1_000_000));
            }
        };
    }

    /**
     * One request with retries; answers any HTTP status (the caller maps errors).
     *
     * @param array<string, string> $headers
     * @throws ApiConnectionException when no attempt got an answer
     */
    public function request(string $method, string $url, array $headers, ?string $body, float $timeout, int $maxRetries): ApiResponse
    {
        $this->lastRetries = [];
        for ($attempt = 0; ; $attempt++) {
            try {
                $response = $this->send($method, $url, $headers, $body, $timeout);
            } catch (ApiConnectionException $e) {
                if ($attempt >= $maxRetries) {
                    throw $e;
                }
                $this->wait($attempt, null, $e->getMessage());
                continue;
            }
            if ($attempt < $maxRetries && self::shouldRetry($response->status)) {
                $this->wait($attempt, $response->header('retry-after'), "HTTP {$response->status}");
                continue;
            }
            return $response;
        }
    }

    /**
     * An event stream: retried like request() until it opens; then its body, chunk by chunk, as it arrives.
     * An error status comes back with its whole body and no chunks.
     *
     * @param array<string, string> $headers
     * @return array{0: ApiResponse, 1: \Generator<int, string>|null}
     */
    public function stream(string $method, string $url, array $headers, ?string $body, float $timeout, int $maxRetries): array
    {
        $this->lastRetries = [];
        for ($attempt = 0; ; $attempt++) {
            try {
                [$response, $chunks] = $this->openStream($method, $url, $headers, $body, $timeout);
            } catch (ApiConnectionException $e) {
                if ($attempt >= $maxRetries) {
                    throw $e;
                }
                $this->wait($attempt, null, $e->getMessage());
                continue;
            }
            if ($chunks === null && $attempt < $maxRetries && self::shouldRetry($response->status)) {
                $this->wait($attempt, $response->header('retry-after'), "HTTP {$response->status}");
                continue;
            }
            return [$response, $chunks];
        }
    }

    public static function shouldRetry(int $status): bool
    {
        return in_array($status, self::RETRY_STATUSES, true);
    }

    /**
     * Seconds to wait before retry number $attempt + 1: Retry-After when it parses (capped), else exponential
     * backoff with jitter (between 75 % and 100 % of 0.5 s × 2^attempt, capped at 8 s).
     */
    public static function backoff(int $attempt, ?string $retryAfter, ?int $now = null): float
    {
        if ($retryAfter !== null && ($retryAfter = trim($retryAfter)) !== '') {
            if (is_numeric($retryAfter)) {
                return max(0.0, min(self::RETRY_AFTER_MAX, (float) $retryAfter));
            }
            $at = strtotime($retryAfter);
            if ($at !== false) {
                return max(0.0, min(self::RETRY_AFTER_MAX, (float) ($at - ($now ?? time()))));
            }
        }
        $base = min(self::BACKOFF_MAX, self::BACKOFF_BASE * (2 ** $attempt));
        return $base * (1 - 0.25 * (mt_rand() / mt_getrandmax()));
    }

    private function wait(int $attempt, ?string $retryAfter, string $reason): void
    {
        $delay = self::backoff($attempt, $retryAfter);
        $this->lastRetries[] = ['attempt' => $attempt + 1, 'delay' => $delay, 'reason' => $reason];
        ($this->sleep)($delay);
    }

    /**
     * One attempt, no retries.
     *
     * @param array<string, string> $headers
     * @throws ApiConnectionException
     */
    public function send(string $method, string $url, array $headers, ?string $body, float $timeout): ApiResponse
    {
        $ch = $this->handle ??= curl_init();
        curl_reset($ch);
        $collected = [];
        curl_setopt_array($ch, $this->options($method, $url, $headers, $body, $timeout, $collected) + [
            CURLOPT_RETURNTRANSFER => true,
            CURLOPT_TIMEOUT_MS => max(1, (int) ceil($timeout * 1000)),
        ]);
        $raw = curl_exec($ch);
        if ($raw === false) {
            throw self::connectionError(curl_errno($ch), curl_error($ch), $method, $url, $timeout);
        }
        return new ApiResponse((int) curl_getinfo($ch, CURLINFO_RESPONSE_CODE), self::joinHeaders($collected), (string) $raw, $method, $url);
    }

    /**
     * @param array<string, string> $headers
     * @return array{0: ApiResponse, 1: \Generator<int, string>|null}
     */
    private function openStream(string $method, string $url, array $headers, ?string $body, float $timeout): array
    {
        $state = new \stdClass();
        $state->buffer = '';
        $state->headers = [];
        $state->headersDone = false;
        $state->status = 0;
        $state->running = 1;
        $state->result = null;
        $ch = curl_init();
        $mh = curl_multi_init();
        $options = $this->options($method, $url, $headers, $body, $timeout, $state->headers, $state);
        $options[CURLOPT_WRITEFUNCTION] = static function ($ch, string $data) use ($state): int {
            $state->buffer .= $data;
            return strlen($data);
        };
        // No total limit for a stream; `timeout` seconds without a byte (heartbeats count) ends it.
        $options[CURLOPT_LOW_SPEED_LIMIT] = 1;
        $options[CURLOPT_LOW_SPEED_TIME] = max(1, (int) ceil($timeout));
        curl_setopt_array($ch, $options);
        curl_multi_add_handle($mh, $ch);
        // Handles are objects since PHP 8.0 (curl_close() does nothing and is deprecated in 8.5): removing the
        // easy handle ends the transfer; both are freed with the last reference.
        $close = static function () use ($mh, $ch): void {
            curl_multi_remove_handle($mh, $ch);
        };
        try {
            while (!$state->headersDone && $state->running) {
                self::pump($mh, $state);
            }
            if (!$state->headersDone) {
                $errno = $state->result ?? CURLE_GOT_NOTHING;
                throw self::connectionError($errno, $errno === CURLE_OK ? 'the server answered nothing' : curl_strerror($errno), $method, $url, $timeout);
            }
            $status = (int) curl_getinfo($ch, CURLINFO_RESPONSE_CODE);
            if ($status >= 300) {
                $errorBody = '';
                while ($state->running) {
                    $errorBody .= $state->buffer;
                    $state->buffer = '';
                    self::pump($mh, $state);
                }
                $response = new ApiResponse($status, self::joinHeaders($state->headers), $errorBody . $state->buffer, $method, $url);
                $close();
                return [$response, null];
            }
        } catch (\Throwable $e) {
            $close();
            throw $e;
        }
        $response = new ApiResponse($status, self::joinHeaders($state->headers), '', $method, $url);
        $chunks = (static function () use ($mh, $state, $close, $method, $url, $timeout): \Generator {
            try {
                while (true) {
                    if ($state->buffer !== '') {
                        $chunk = $state->buffer;
                        $state->buffer = '';
                        yield $chunk;
                        continue;
                    }
                    if (!$state->running) {
                        break;
                    }
                    self::pump($mh, $state);
                }
                if ($state->result !== null && $state->result !== CURLE_OK) {
                    throw self::connectionError($state->result, curl_strerror($state->result), $method, $url, $timeout);
                }
            } finally {
                $close();
            }
        })();
        return [$response, $chunks];
    }

    /** Lets curl work until something happens (or ~0.5 s passes). */
    private static function pump(\CurlMultiHandle $mh, \stdClass $state): void
    {
        do {
            $rc = curl_multi_exec($mh, $running);
        } while ($rc === CURLM_CALL_MULTI_PERFORM);
        $state->running = $running;
        while (($info = curl_multi_info_read($mh)) !== false) {
            $state->result = $info['result'];
        }
        if ($running && $state->buffer === '' && curl_multi_select($mh, 0.5) === -1) {
            usleep(10_000);
        }
    }

    /**
     * @param array<string, string> $headers
     * @param list<array{0: string, 1: string}> $collected filled with the response's headers
     * @return array<int, mixed>
     */
    private function options(string $method, string $url, array $headers, ?string $body, float $timeout, array &$collected, ?\stdClass $state = null): array
    {
        $lines = [];
        $extra = ['Expect' => '']; // no `Expect: 100-continue` round trip for larger bodies
        if ($body === null && in_array($method, ['POST', 'PUT', 'PATCH'], true) && !array_filter(array_keys($headers), static fn ($n) => strcasecmp((string) $n, 'content-type') === 0)) {
            $extra['Content-Type'] = ''; // an empty body: not curl's default application/x-www-form-urlencoded
        }
        foreach ($headers + $extra as $name => $value) {
            $lines[] = $value === '' ? "$name:" : "$name: $value";
        }
        $options = [
            CURLOPT_URL => $url,
            CURLOPT_CUSTOMREQUEST => $method,
            CURLOPT_HTTPHEADER => $lines,
            CURLOPT_HTTP_VERSION => CURL_HTTP_VERSION_1_1,
            CURLOPT_CONNECTTIMEOUT_MS => max(1, (int) ceil(min($this->connectTimeout, $timeout) * 1000)),
            CURLOPT_NOSIGNAL => true,
            CURLOPT_FOLLOWLOCATION => false,
            CURLOPT_ENCODING => '',
            CURLOPT_HEADERFUNCTION => static function ($ch, string $line) use (&$collected, $state): int {
                $trimmed = rtrim($line, "\r\n");
                if (preg_match('#^HTTP/\S+\s+(\d{3})#', $trimmed, $m)) {
                    $collected = []; // a new response (after 100 Continue): its own headers
                    if ($state !== null) {
                        $state->status = (int) $m[1];
                    }
                } elseif ($trimmed === '') {
                    if ($state !== null && ($state->status ?? 0) >= 200) {
                        $state->headersDone = true;
                    }
                } elseif (str_contains($trimmed, ':')) {
                    [$name, $value] = explode(':', $trimmed, 2);
                    $collected[] = [strtolower(trim($name)), trim($value)];
                }
                return strlen($line);
            },
        ];
        if ($method === 'HEAD') {
            $options[CURLOPT_NOBODY] = true;
        } elseif ($body !== null) {
            $options[CURLOPT_POSTFIELDS] = $body;
        } elseif (in_array($method, ['POST', 'PUT', 'PATCH'], true)) {
            $options[CURLOPT_POSTFIELDS] = '';
        }
        return $options;
    }

    /**
     * @param list<array{0: string, 1: string}> $collected
     * @return array<string, string>
     */
    private static function joinHeaders(array $collected): array
    {
        $headers = [];
        foreach ($collected as [$name, $value]) {
            $headers[$name] = isset($headers[$name]) ? "{$headers[$name]}, $value" : $value;
        }
        return $headers;
    }

    private static function connectionError(int $errno, string $error, string $method, string $url, float $timeout): ApiConnectionException
    {
        if ($errno === CURLE_OPERATION_TIMEDOUT) {
            return new ApiTimeoutException(sprintf('%s %s: no answer within %s s (%s)', $method, $url, $timeout, $error), $errno);
        }
        return new ApiConnectionException(sprintf('%s %s: could not reach the API: %s (curl error %d)', $method, $url, $error, $errno), $errno);
    }
}
