<?php

// A tiny test harness: test('name', fn () => …) registers a test; the assert_* functions throw
// AssertionFailed with a message; run.php runs every registered test and prints each name.

declare(strict_types=1);

final class AssertionFailed extends \RuntimeException
{
}

final class SkipTest extends \RuntimeException
{
}

/** @var array<int, array{0: string, 1: callable}> */
$GLOBALS['__tests'] = [];

function test(string $name, callable $fn): void
{
    $GLOBALS['__tests'][] = [$name, $fn];
}

function skip(string $why): never
{
    throw new SkipTest($why);
}

function export_value(mixed $v): string
{
    $s = var_export($v, true);
    return strlen($s) > 400 ? substr($s, 0, 400) . '…' : $s;
}

function fail(string $message): never
{
    throw new AssertionFailed($message);
}

function assert_true(mixed $cond, string $message = 'expected true'): void
{
    if ($cond !== true) {
        fail($message . ' (got ' . export_value($cond) . ')');
    }
}

function assert_same(mixed $expected, mixed $actual, string $message = ''): void
{
    if ($expected !== $actual) {
        fail(($message !== '' ? "$message: " : '') . 'expected ' . export_value($expected) . ', got ' . export_value($actual));
    }
}

function assert_equals(mixed $expected, mixed $actual, string $message = ''): void
{
    if ($expected != $actual) {
        fail(($message !== '' ? "$message: " : '') . 'expected ' . export_value($expected) . ', got ' . export_value($actual));
    }
}

function assert_starts_with(string $prefix, ?string $actual, string $message = ''): void
{
    if ($actual === null || !str_starts_with($actual, $prefix)) {
        fail(($message !== '' ? "$message: " : '') . 'expected a string starting ' . export_value($prefix) . ', got ' . export_value($actual));
    }
}

function assert_instance_of(string $class, mixed $actual, string $message = ''): void
{
    if (!$actual instanceof $class) {
        fail(($message !== '' ? "$message: " : '') . "expected an instance of $class, got " . get_debug_type($actual));
    }
}

/**
 * Runs $fn and answers what it threw, which must be a $class.
 *
 * @template T of \Throwable
 * @param class-string<T> $class
 * @return T
 */
function assert_throws(string $class, callable $fn, string $message = ''): \Throwable
{
    try {
        $fn();
    } catch (SkipTest $e) {
        throw $e;
    } catch (\Throwable $e) {
        if ($e instanceof $class) {
            return $e;
        }
        fail(($message !== '' ? "$message: " : '') . "expected $class, got " . get_class($e) . ': ' . $e->getMessage());
    }
    fail(($message !== '' ? "$message: " : '') . "expected $class, nothing was thrown");
}

/** An SVC_* variable of the live server, or the test is skipped (run through php.sdk.test.ts to get them). */
function env(string $name): string
{
    $v = getenv($name);
    if (!is_string($v) || $v === '') {
        skip("$name is not set (the live server's variables come from sdk/php/php.sdk.test.ts)");
    }
    return $v;
}

/** A client on the live API with the live key. */
function live_client(array $options = []): \Svc\SvcClient
{
    return new \Svc\SvcClient(env('SVC_API_KEY'), $options + ['base_url' => env('SVC_BASE_URL')]);
}

/** A request the client does not make (the proxy's control URL): decoded JSON. */
function raw_json(string $method, string $url, ?array $body = null): array
{
    $ch = curl_init($url);
    curl_setopt_array($ch, [
        CURLOPT_CUSTOMREQUEST => $method,
        CURLOPT_RETURNTRANSFER => true,
        CURLOPT_TIMEOUT => 10,
        CURLOPT_HTTPHEADER => ['Content-Type: application/json'],
    ]);
    if ($body !== null) {
        curl_setopt($ch, CURLOPT_POSTFIELDS, json_encode($body));
    }
    $raw = curl_exec($ch);
    if ($raw === false) {
        fail("$method $url: " . curl_error($ch));
    }
    return json_decode((string) $raw, true, 512, JSON_THROW_ON_ERROR);
}

function unique(string $prefix): string
{
    return $prefix . bin2hex(random_bytes(5));
}

/**
 * Starts fake_server.php with these scripted responses; answers its base URL and a function that answers
 * the requests it has read so far.
 *
 * @param list<array<string, mixed>> $responses
 * @return array{0: string, 1: \Closure(): list<array{method: string, path: string, headers: array<string, string>, body: string}>}
 */
function fake_server(array $responses): array
{
    $script = tempnam(sys_get_temp_dir(), 'svc-php-script-');
    $log = tempnam(sys_get_temp_dir(), 'svc-php-log-');
    // Chunks travel base64-encoded (they may be binary).
    foreach ($responses as &$r) {
        $r['chunks'] = array_map('base64_encode', $r['chunks'] ?? []);
    }
    unset($r);
    file_put_contents($script, json_encode($responses, JSON_THROW_ON_ERROR));
    file_put_contents($log, '[]');
    $proc = proc_open([PHP_BINARY, __DIR__ . '/fake_server.php', $script, $log], [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => STDERR], $pipes);
    if (!is_resource($proc)) {
        fail('could not start fake_server.php');
    }
    $port = trim((string) fgets($pipes[1]));
    if (!ctype_digit($port)) {
        fail('fake_server.php did not print its port');
    }
    $GLOBALS['__fake_servers'][] = [$proc, $pipes, $script, $log];
    return ["http://127.0.0.1:$port/v2", static fn (): array => json_decode((string) file_get_contents($log), true)];
}

register_shutdown_function(static function (): void {
    foreach ($GLOBALS['__fake_servers'] ?? [] as [$proc, $pipes, $script, $log]) {
        proc_terminate($proc);
        proc_close($proc);
        @unlink($script);
        @unlink($log);
    }
});
