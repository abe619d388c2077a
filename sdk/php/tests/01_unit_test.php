<?php

// Unit tests: no server needed.

declare(strict_types=1);

use Svc\ApiResponse;
use Svc\Exception\ApiException;
use Svc\Exception\AuthenticationException;
use Svc\Exception\ConflictException;
use Svc\Exception\InvalidArgumentException;
use Svc\Exception\InvalidRequestException;
use Svc\Exception\NotFoundException;
use Svc\Exception\PermissionException;
use Svc\Exception\RateLimitException;
use Svc\Exception\ServerException;
use Svc\Exception\SignatureVerificationException;
use Svc\Exception\ValidationException;
use Svc\HttpClient;
use Svc\Page;
use Svc\Sse;
use Svc\SvcClient;
use Svc\Version;
use Svc\Webhook;

test('unit: base URL from the key prefix, or as given when it ends with /v2 or /sandbox/v2', function () {
    assert_same('https://api.example.com/v2', SvcClient::baseUrlFor(Version::DEFAULT_BASE_URL, 'svc_live_x'));
    assert_same('https://api.example.com/sandbox/v2', SvcClient::baseUrlFor('https://api.example.com/', 'svc_test_x'));
    assert_same('http://127.0.0.1:9/v2', SvcClient::baseUrlFor('http://127.0.0.1:9/v2/', 'svc_test_x'));
    assert_same('http://127.0.0.1:9/sandbox/v2', SvcClient::baseUrlFor('http://127.0.0.1:9/sandbox/v2', 'svc_live_x'));
    $c = new SvcClient(['api_key' => 'svc_test_abc']);
    assert_same('https://api.example.com/sandbox/v2', $c->getBaseUrl());
    assert_same(Version::API_VERSION, $c->getApiVersion());
});

test('unit: unknown client and request options are refused', function () {
    assert_throws(InvalidArgumentException::class, fn () => new SvcClient('svc_live_x', ['timout' => 1]));
    $c = new SvcClient('svc_live_x', ['base_url' => 'http://127.0.0.1:9']);
    assert_throws(InvalidArgumentException::class, fn () => $c->leads->get('lead_1', null, ['idempotencyKey' => 'k']));
    assert_throws(InvalidArgumentException::class, fn () => $c->leads->get(''), 'an empty path parameter');
});

test('unit: query strings repeat list keys, spell booleans, leave out nulls', function () {
    assert_same('tag=a&tag=b&private=true&x=false&limit=2', SvcClient::encodeQuery(['tag' => ['a', 'b'], 'private' => true, 'x' => false, 'skip' => null, 'limit' => 2]));
    assert_same('q=a%20b%26c&m%5Bk%5D=v', SvcClient::encodeQuery(['q' => 'a b&c', 'm' => ['k' => 'v']]));
});

test('unit: Idempotency-Key values are UUID v4; the User-Agent names the client and PHP', function () {
    $a = SvcClient::uuid4();
    assert_true(preg_match('/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/', $a) === 1, "uuid $a");
    assert_true($a !== SvcClient::uuid4());
    assert_starts_with('svc-php/' . Version::SDK_VERSION . ' (php ' . PHP_VERSION, SvcClient::userAgent());
});

test('unit: backoff doubles from 0.5 s with jitter, caps at 8 s, and Retry-After wins (capped at 60 s)', function () {
    for ($i = 0; $i < 50; $i++) {
        $d0 = HttpClient::backoff(0, null);
        assert_true($d0 >= 0.375 && $d0 <= 0.5, "attempt 0: $d0");
        $d3 = HttpClient::backoff(3, null);
        assert_true($d3 >= 3.0 && $d3 <= 4.0, "attempt 3: $d3");
        $d9 = HttpClient::backoff(9, null);
        assert_true($d9 >= 6.0 && $d9 <= 8.0, "attempt 9: $d9");
    }
    assert_same(1.0, HttpClient::backoff(0, '1'));
    assert_same(60.0, HttpClient::backoff(0, '3600'));
    assert_same(10.0, HttpClient::backoff(0, gmdate('D, d M Y H:i:s', 1_000_010) . ' GMT', 1_000_000));
    assert_true(HttpClient::shouldRetry(429) && HttpClient::shouldRetry(503) && !HttpClient::shouldRetry(409) && !HttpClient::shouldRetry(400));
});

test('unit: error responses map to typed exceptions with the problem fields', function () {
    $problem = static fn (int $status, string $code, array $extra = []) => new ApiResponse($status, ['x-request-id' => 'req_header', 'content-type' => 'application/problem+json'], json_encode([
        'type' => "https://api.example.com/errors/$code", 'title' => 'T', 'status' => $status, 'detail' => 'D', 'instance' => '/v2/x', 'code' => $code,
    ] + $extra));
    $cases = [400 => InvalidRequestException::class, 401 => AuthenticationException::class, 403 => PermissionException::class, 404 => NotFoundException::class,
        409 => ConflictException::class, 410 => InvalidRequestException::class, 422 => ValidationException::class, 429 => RateLimitException::class, 500 => ServerException::class, 503 => ServerException::class];
    foreach ($cases as $status => $class) {
        $e = ApiException::fromResponse($problem($status, 'some_code'));
        assert_same($class, get_class($e), "status $status");
        assert_same($status, $e->getHttpStatus());
        assert_same($status, $e->getCode());
        assert_same('some_code', $e->getErrorCode());
        assert_same('req_header', $e->getRequestId(), 'X-Request-ID when the body has none');
    }
    $e = ApiException::fromResponse($problem(422, 'validation_failed', ['request_id' => 'req_body', 'errors' => [['pointer' => '/email', 'detail' => 'bad']]]));
    assert_same('req_body', $e->requestId);
    assert_same([['pointer' => '/email', 'detail' => 'bad']], $e->getErrors());
    assert_same('D', $e->getDetail());
    assert_same('T', $e->getTitle());
    assert_instance_of(InvalidRequestException::class, $e, 'a validation error is an invalid request');
    $raw = ApiException::fromResponse(new ApiResponse(502, [], '<html>bad gateway</html>'));
    assert_same(ServerException::class, get_class($raw));
    assert_same('<html>bad gateway</html>', $raw->getHttpBody());
    assert_same(null, $raw->getErrorCode());
});

test('unit: SSE parsing follows the spec whatever the chunking', function () {
    $stream = ": ping\r\n\r\nevent: step.started\r\nid: s:1\r\ndata: {\"a\":1}\r\n\r\n"
        . "data: line one\ndata: line two\n\n"
        . "event: empty\n\n"
        . "data\n\n"
        . "event: completed\rid: s:3\rdata: {\"done\":true}\r\r"
        . "data: never ended";
    $expected = [
        ['event' => 'step.started', 'data' => ['a' => 1], 'id' => 's:1'],
        ['event' => 'message', 'data' => "line one\nline two", 'id' => 's:1'],
        ['event' => 'message', 'data' => '', 'id' => 's:1'],
        ['event' => 'completed', 'data' => ['done' => true], 'id' => 's:3'],
    ];
    assert_same($expected, iterator_to_array(Sse::events([$stream]), false), 'one chunk');
    assert_same($expected, iterator_to_array(Sse::events(str_split($stream)), false), 'byte by byte');
    assert_same($expected, iterator_to_array(Sse::events(str_split($stream, 7)), false), '7-byte chunks');
});

test('unit: webhook signatures verify with either header set and fail on any change', function () {
    $secret = 'whsec_' . base64_encode(random_bytes(24));
    $body = '{"id":"evt_1","type":"webhook.test","data":{"object":{"x":1}}}';
    $t = 1_700_000_000;
    $svc = ['Svc-Status-Signature' => Webhook::signatureHeader($body, $secret, $t)];
    $std = Webhook::standardHeaders($body, $secret, 'evt_1', $t);
    assert_same('webhook.test', Webhook::constructEvent($body, $svc, $secret, 300, $t + 10)['type']);
    assert_same('webhook.test', Webhook::constructEvent($body, $std, $secret, 300, $t - 10)['type']);
    assert_same('webhook.test', Webhook::constructEvent($body, ['HTTP_WEBHOOK_ID' => 'evt_1', 'HTTP_WEBHOOK_TIMESTAMP' => (string) $t, 'HTTP_WEBHOOK_SIGNATURE' => 'v1,AAAA ' . $std['webhook-signature']], $secret, 300, $t)['type'], '$_SERVER names, a second signature');
    assert_same('webhook.test', Webhook::constructEvent($body, ['svc-status-signature' => ["t=$t,v1=00", 'v1=' . explode('v1=', $svc['Svc-Status-Signature'])[1]]], $secret, 300, $t)['type'], 'a list per name');
    assert_throws(SignatureVerificationException::class, fn () => Webhook::constructEvent($body . ' ', $svc, $secret, 300, $t));
    assert_throws(SignatureVerificationException::class, fn () => Webhook::constructEvent($body, $std, 'whsec_' . base64_encode('other'), 300, $t));
    assert_throws(SignatureVerificationException::class, fn () => Webhook::constructEvent($body, $svc, $secret, 300, $t + 301));
    assert_throws(SignatureVerificationException::class, fn () => Webhook::constructEvent($body, $std, $secret, 300, $t - 301));
    assert_throws(SignatureVerificationException::class, fn () => Webhook::constructEvent($body, [], $secret, 300, $t));
    assert_throws(SignatureVerificationException::class, fn () => Webhook::constructEvent($body, ['Svc-Status-Signature' => 'garbage'], $secret, 300, $t));
});

test('unit: a page iterates its own items; autoPagingIterator fetches with the same query and the cursor', function () {
    $calls = [];
    $pages = [
        null => ['object' => 'list', 'data' => [1, 2], 'has_more' => true, 'next_cursor' => 'c1'],
        'c1' => ['object' => 'list', 'data' => [3, 4], 'has_more' => true, 'next_cursor' => 'c2'],
        'c2' => ['object' => 'list', 'data' => [5], 'has_more' => false, 'next_cursor' => null],
    ];
    $fetch = null;
    $fetch = function (array $params) use (&$fetch, &$calls, $pages): Page {
        $calls[] = $params;
        return new Page($pages[$params['cursor'] ?? null], $fetch, $params);
    };
    $first = $fetch(['limit' => 2, 'status' => 'open']);
    assert_same([1, 2], iterator_to_array($first));
    assert_same(2, count($first));
    assert_same(true, $first['has_more']);
    assert_same([1, 2, 3, 4, 5], iterator_to_array($first->autoPagingIterator(), false));
    assert_same([['limit' => 2, 'status' => 'open'], ['cursor' => 'c1', 'limit' => 2, 'status' => 'open'], ['cursor' => 'c2', 'limit' => 2, 'status' => 'open']], $calls);
});

test('unit: a refused connection is retried max_retries times, then an ApiConnectionException', function () {
    $sleeps = [];
    $http = new HttpClient(function (float $s) use (&$sleeps) {
        $sleeps[] = $s;
    });
    // A port nothing listens on: bind one, close it.
    $sock = stream_socket_server('tcp://127.0.0.1:0');
    $port = (int) substr(strrchr(stream_socket_get_name($sock, false), ':'), 1);
    fclose($sock);
    $c = new SvcClient('svc_live_x', ['base_url' => "http://127.0.0.1:$port", 'http_client' => $http, 'max_retries' => 3]);
    $e = assert_throws(\Svc\Exception\ApiConnectionException::class, fn () => $c->leads->create(['email' => 'a@example.com']));
    assert_same(null, $e->getHttpStatus());
    assert_same(3, count($sleeps), 'three retries');
    assert_true($sleeps[0] <= 0.5 && $sleeps[1] <= 1.0 && $sleeps[1] > 0.5 && $sleeps[2] > 1.0);
});

test('unit: a server that never answers is an ApiTimeoutException after `timeout` seconds', function () {
    $server = stream_socket_server('tcp://127.0.0.1:0');
    $port = (int) substr(strrchr(stream_socket_get_name($server, false), ':'), 1);
    $c = new SvcClient('svc_live_x', ['base_url' => "http://127.0.0.1:$port", 'max_retries' => 0]);
    $t = microtime(true);
    $e = assert_throws(\Svc\Exception\ApiTimeoutException::class, fn () => $c->health->get(null, ['timeout' => 0.3]));
    $elapsed = microtime(true) - $t;
    assert_true($elapsed >= 0.25 && $elapsed < 3, "timed out after $elapsed s");
    assert_instance_of(\Svc\Exception\ApiConnectionException::class, $e);
    fclose($server);
});
