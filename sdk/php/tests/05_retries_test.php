<?php

// Retries through the steerable proxy: a dropped answer is retried with the same Idempotency-Key (the effect
// happens once), and a 429's Retry-After is honoured.

declare(strict_types=1);

use Svc\SvcClient;

function proxy_client(array $options = []): SvcClient
{
    return new SvcClient(env('SVC_API_KEY'), $options + ['base_url' => env('SVC_PROXY_BASE_URL')]);
}

test('retries: a dropped connection is retried with the same Idempotency-Key; the lead exists once', function () {
    $control = env('SVC_PROXY_CONTROL_URL');
    $before = count(raw_json('GET', $control)['requests']);
    raw_json('POST', $control, ['mode' => 'drop-next']);
    $email = unique('retry-') . '@example.com';
    $lead = proxy_client()->leads->create(['email' => $email]);
    assert_same($email, $lead['email']);
    $requests = array_slice(raw_json('GET', $control)['requests'], $before);
    assert_same(2, count($requests), 'the proxy saw the request and its retry');
    assert_same(['POST', 'POST'], array_column($requests, 'method'));
    assert_same([true, false], array_column($requests, 'dropped'));
    assert_true(is_string($requests[0]['idempotency_key']) && $requests[0]['idempotency_key'] !== '', 'an Idempotency-Key was sent');
    assert_same($requests[0]['idempotency_key'], $requests[1]['idempotency_key'], 'the same key on the retry');
    $listed = live_client()->leads->list(['email' => $email]);
    assert_same([$lead['id']], array_column($listed->data, 'id'), 'exactly one lead');
});

test('retries: the key given as idempotency_key is the one sent', function () {
    $control = env('SVC_PROXY_CONTROL_URL');
    $before = count(raw_json('GET', $control)['requests']);
    $key = 'php-' . \Svc\SvcClient::uuid4();
    $name = unique('idem-');
    $client = proxy_client();
    $tag = $client->inbox->tags->create(['name' => $name], ['idempotency_key' => $key]);
    $again = $client->inbox->tags->create(['name' => $name], ['idempotency_key' => $key]);
    $requests = array_slice(raw_json('GET', $control)['requests'], $before);
    assert_same([$key, $key], array_column($requests, 'idempotency_key'));
    assert_same($tag['id'], $again['id'], 'the second call replays the first answer');
    assert_same('true', $client->getLastResponse()->header('idempotent-replayed'), 'Idempotent-Replayed');
    $e = assert_throws(\Svc\Exception\ConflictException::class, fn () => proxy_client(['max_retries' => 0])->inbox->tags->create(['name' => 'other'], ['idempotency_key' => $key]));
    assert_same('idempotency_key_reused', $e->getErrorCode(), 'another body with the key: 409, not retried');
});

test('retries: a 429 is retried after its Retry-After', function () {
    $control = env('SVC_PROXY_CONTROL_URL');
    $before = count(raw_json('GET', $control)['requests']);
    raw_json('POST', $control, ['mode' => '429-next']);
    $t = microtime(true);
    $page = proxy_client()->leads->list(['limit' => 1]);
    $elapsed = microtime(true) - $t;
    assert_same('list', $page['object']);
    assert_true($elapsed >= 0.9, "waited $elapsed s");
    assert_same(2, count(raw_json('GET', $control)['requests']) - $before, 'the proxy saw two requests');
});

test('retries: with max_retries 0 the 429 is a RateLimitException', function () {
    $control = env('SVC_PROXY_CONTROL_URL');
    raw_json('POST', $control, ['mode' => '429-next']);
    $e = assert_throws(\Svc\Exception\RateLimitException::class, fn () => proxy_client(['max_retries' => 0])->leads->list());
    assert_same(429, $e->getHttpStatus());
    assert_same('rate_limited', $e->getErrorCode());
    assert_same('1', $e->getHeaders()['retry-after']);
});
