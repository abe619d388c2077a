<?php

// The API version pin and the User-Agent, as the server sees them. (The server answers Svc-Api-Version with
// its own version, whatever the pin; a pin below 2.4.0 shows in the shape of a conversation's lead_score.)

declare(strict_types=1);

use Svc\SvcClient;
use Svc\Version;

/** What the server received: the captured request of a webhook playground inbox (the POST, not the GET that lists). */
function capture_of(SvcClient $c, array $opts = []): array
{
    $token = str_replace(['+', '/', '='], ['-', '_', ''], base64_encode(random_bytes(24)));
    $receipt = $c->webhooks->playground->capturePost($token, ['hello' => 'world'], $opts);
    assert_same('webhook_playground_receipt', $receipt['object']);
    foreach ($c->webhooks->playground->captureGet($token)->autoPagingIterator() as $capture) {
        if ($capture['id'] === $receipt['capture_id']) {
            return $capture;
        }
    }
    fail('the capture is not listed');
}

test('version: Svc-Api-Version is the generated version unless pinned; 2.3.4 gets the 2.3 shapes', function () {
    $c = live_client();
    $c->health->get();
    assert_same(Version::API_VERSION, $c->getLastResponse()->header('svc-api-version'), 'the server speaks 2.4.0');
    assert_same(Version::API_VERSION, capture_of($c)['headers']['svc-api-version']);
    $pinned = live_client(['api_version' => '2.3.4']);
    assert_same('2.3.4', capture_of($pinned)['headers']['svc-api-version']);
    assert_same('2.3.4', capture_of($c, ['api_version' => '2.3.4'])['headers']['svc-api-version'], 'per request');
    // The server honours the pin: lead_score is a number before 2.4.0, an object since.
    $conv = $c->inbox->conversations->create(['channel' => 'chat', 'subject' => 'version pin']);
    assert_true(is_array($c->inbox->conversations->get($conv['id'])['lead_score']), '2.4.0: an object');
    assert_true(is_int($pinned->inbox->conversations->get($conv['id'])['lead_score']), '2.3.4: a number');
});

test('version: the User-Agent and extra headers reach the server; a public operation sends no key', function () {
    $c = live_client(['headers' => ['X-Sdk-Test' => 'php']]);
    $capture = capture_of($c);
    assert_same(SvcClient::userAgent(), $capture['headers']['user-agent']);
    assert_starts_with('svc-php/' . Version::SDK_VERSION . ' (php ', $capture['headers']['user-agent']);
    assert_same('php', $capture['headers']['x-sdk-test']);
    assert_same('{"hello":"world"}', $capture['body']);
    assert_same('application/json', $capture['content_type']);
    assert_true(isset($capture['headers']['idempotency-key']), 'a POST carries an Idempotency-Key');
});
