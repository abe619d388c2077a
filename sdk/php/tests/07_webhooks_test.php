<?php

// Webhook signatures of a real delivery captured from the server.

declare(strict_types=1);

use Svc\Exception\SignatureVerificationException;
use Svc\Webhook;

/** @return array{secret: string, body: string, headers: array<string, string>, tolerance_seconds: int} */
function webhook_fixture(): array
{
    return json_decode((string) file_get_contents(env('SVC_WEBHOOK_FIXTURE')), true, 512, JSON_THROW_ON_ERROR);
}

test('webhooks: a real delivery verifies with its headers, with either header set alone', function () {
    $f = webhook_fixture();
    $t = (int) $f['headers']['webhook-timestamp'];
    $event = Webhook::constructEvent($f['body'], $f['headers'], $f['secret'], $f['tolerance_seconds'], $t + 5);
    assert_same('webhook.test', $event['type']);
    $standard = array_intersect_key($f['headers'], array_flip(['webhook-id', 'webhook-timestamp', 'webhook-signature']));
    assert_same('webhook.test', Webhook::constructEvent($f['body'], $standard, $f['secret'], 300, $t)['type']);
    $svc = ['Svc-Status-Signature' => $f['headers']['svc-status-signature']];
    assert_same('webhook.test', Webhook::constructEvent($f['body'], $svc, $f['secret'], 300, $t)['type']);
    // Upper-case names, as a framework may hand them over.
    $upper = array_combine(array_map('strtoupper', array_keys($standard)), array_values($standard));
    assert_same('webhook.test', Webhook::constructEvent($f['body'], $upper, $f['secret'], 300, $t)['type']);
});

test('webhooks: one altered byte, a wrong secret or an old timestamp fails', function () {
    $f = webhook_fixture();
    $t = (int) $f['headers']['webhook-timestamp'];
    $body = $f['body'];
    $i = strpos($body, 'webhook.test');
    $altered = substr_replace($body, 'W', $i, 1);
    assert_throws(SignatureVerificationException::class, fn () => Webhook::constructEvent($altered, $f['headers'], $f['secret'], 300, $t));
    assert_throws(SignatureVerificationException::class, fn () => Webhook::constructEvent($body, $f['headers'], 'whsec_' . base64_encode(random_bytes(32)), 300, $t));
    assert_throws(SignatureVerificationException::class, fn () => Webhook::constructEvent($body, $f['headers'], $f['secret'], 300, $t + 301));
    foreach ([['svc-status-signature'], ['webhook-id', 'webhook-timestamp', 'webhook-signature']] as $names) {
        $only = array_intersect_key($f['headers'], array_flip($names));
        assert_throws(SignatureVerificationException::class, fn () => Webhook::constructEvent($altered, $only, $f['secret'], 300, $t), implode(',', $names) . ' alone, altered body');
        assert_throws(SignatureVerificationException::class, fn () => Webhook::constructEvent($body, $only, $f['secret'], 300, $t + 301), implode(',', $names) . ' alone, old');
    }
});
