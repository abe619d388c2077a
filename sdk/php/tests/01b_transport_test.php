<?php

// The transport against a scripted local server: retries of 5xx and dropped connections with one
// Idempotency-Key, Retry-After as an HTTP date, no retry of 4xx, bytes of file answers, and event streams
// read as they arrive.

declare(strict_types=1);

use Svc\SvcClient;

$json = static fn (int $status, array $body, array $headers = []) => ['status' => $status, 'headers' => ['Content-Type' => str_starts_with((string) $status, '2') ? 'application/json' : 'application/problem+json', 'X-Request-ID' => 'req_fake'] + $headers, 'chunks' => [json_encode($body)]];

test('transport: 503, a dropped connection and 502 are retried with one Idempotency-Key', function () use ($json) {
    [$url, $requests] = fake_server([
        $json(503, ['status' => 503, 'code' => 'unavailable']),
        ['drop' => true],
        $json(502, ['status' => 502, 'code' => 'bad_gateway']),
        $json(201, ['id' => 'lead_1', 'object' => 'lead']),
    ]);
    $sleeps = [];
    $http = new \Svc\HttpClient(function (float $s) use (&$sleeps) {
        $sleeps[] = $s;
    });
    $c = new SvcClient('svc_live_x', ['base_url' => $url, 'http_client' => $http, 'max_retries' => 3]);
    $lead = $c->leads->create(['email' => 'a@example.com']);
    assert_same('lead_1', $lead['id']);
    $seen = $requests();
    assert_same(4, count($seen));
    $keys = array_unique(array_map(static fn ($r) => $r['headers']['idempotency-key'] ?? null, $seen));
    assert_same(1, count($keys), 'one key for every attempt');
    assert_same('{"email":"a@example.com"}', $seen[3]['body']);
    assert_same('Bearer svc_live_x', $seen[0]['headers']['authorization']);
    assert_same('/v2/leads', $seen[0]['path']);
    assert_same(3, count($sleeps));
});

test('transport: Retry-After as an HTTP date; 4xx other than 429 are not retried', function () use ($json) {
    [$url, $requests] = fake_server([
        $json(429, ['status' => 429, 'code' => 'rate_limited'], ['Retry-After' => gmdate('D, d M Y H:i:s', time() + 2) . ' GMT']),
        $json(200, ['object' => 'health']),
        $json(409, ['status' => 409, 'code' => 'idempotency_key_in_use', 'request_id' => 'req_409']),
    ]);
    $sleeps = [];
    $http = new \Svc\HttpClient(function (float $s) use (&$sleeps) {
        $sleeps[] = $s;
    });
    $c = new SvcClient('svc_live_x', ['base_url' => $url, 'http_client' => $http]);
    assert_same('health', $c->health->get()['object']);
    assert_true(count($sleeps) === 1 && $sleeps[0] >= 1.0 && $sleeps[0] <= 2.0, 'waited until the date: ' . json_encode($sleeps));
    $e = assert_throws(\Svc\Exception\ConflictException::class, fn () => $c->leads->create(['email' => 'a@example.com']));
    assert_same('req_409', $e->getRequestId());
    assert_same(3, count($requests()), 'the 409 was not retried');
});

test('transport: GET sends the query, no body and no Idempotency-Key; 204 is null; files are bytes', function () use ($json) {
    [$url, $requests] = fake_server([
        $json(200, ['object' => 'list', 'data' => [], 'has_more' => false, 'next_cursor' => null]),
        ['status' => 204, 'headers' => [], 'chunks' => []],
        ['status' => 200, 'headers' => ['Content-Type' => 'application/pdf'], 'chunks' => ["%PDF-1.7\n\x00\xff binary"]],
    ]);
    $c = new SvcClient('svc_live_x', ['base_url' => $url]);
    $page = $c->inbox->conversations->list(['status' => 'open', 'tag' => ['a', 'b'], 'assignee' => null, 'limit' => 5]);
    assert_same(0, count($page));
    assert_same(null, $c->request('DELETE', '/leads/lead_1'));
    $pdf = $c->compliance->evidence->download('evd_1');
    assert_same("%PDF-1.7\n\x00\xff binary", $pdf);
    $seen = $requests();
    assert_same('/v2/inbox/conversations?status=open&tag=a&tag=b&limit=5', $seen[0]['path']);
    assert_true(!isset($seen[0]['headers']['idempotency-key']) && !isset($seen[0]['headers']['content-type']), 'a GET has no key, no body');
    assert_same('application/json', $seen[0]['headers']['accept']);
    assert_true(isset($seen[1]['headers']['idempotency-key']), 'a DELETE has a key');
    assert_same('application/pdf', $seen[2]['headers']['accept'], 'a file operation asks for the file');
});

test('transport: an event stream is read as it arrives', function () {
    [$url, $requests] = fake_server([
        ['status' => 200, 'headers' => ['Content-Type' => 'text/event-stream'], 'delay_ms' => 600, 'chunks' => [
            ": ping\n\nid: s:1\nevent: step.completed\ndata: {\"step\":1}\n\n",
            "id: s:2\nevent: completed\ndata: {\"dry_run\":{\"status\":\"succeeded\"}}\n\n",
        ]],
    ]);
    $c = new SvcClient('svc_live_x', ['base_url' => $url]);
    $t = microtime(true);
    $arrivals = [];
    $events = [];
    foreach ($c->agents->dryRun->stream('agt_1', ['input' => 'x']) as $event) {
        $arrivals[] = microtime(true) - $t;
        $events[] = $event;
    }
    assert_same(['step.completed', 'completed'], array_column($events, 'event'));
    assert_same(['step' => 1], $events[0]['data']);
    assert_same('s:2', $events[1]['id']);
    assert_true($arrivals[0] < 0.45 && $arrivals[1] >= 0.5, 'the first event before the second was sent: ' . json_encode($arrivals));
    $seen = $requests()[0];
    assert_same('text/event-stream', $seen['headers']['accept']);
    assert_same('POST', $seen['method']);
    assert_same('{"input":"x"}', $seen['body']);
});
