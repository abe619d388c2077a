<?php

// File operations answer bytes: a call's recording as audio/wav (sandbox: a simulated call, recorded).

declare(strict_types=1);

use Svc\SvcClient;

test('files: a recording downloads as WAV bytes; format=json gives its metadata', function () {
    $c = new SvcClient(env('SVC_TEST_KEY'), ['base_url' => env('SVC_SANDBOX_URL')]);
    $number = $c->voice->numbers->provision(['country' => 'US']);
    assert_same('voice_number', $number['object']);
    $call = $c->voice->calls->create(['from_number_id' => $number['id'], 'to' => '+15005550006', 'record' => true, 'script' => ['Hello from PHP']]);
    assert_same('voice_call', $call['object']);
    $deadline = microtime(true) + 25;
    $status = null;
    while (microtime(true) < $deadline) {
        try {
            $meta = $c->voice->calls->recording->get($call['id'], ['format' => 'json']);
            $status = $meta['status'];
            if (in_array($status, ['ready', 'failed', 'unavailable'], true)) {
                break;
            }
        } catch (\Svc\Exception\NotFoundException $e) {
            assert_same('recording_not_found', $e->getErrorCode(), 'before the call is answered');
        }
        usleep(200_000);
    }
    if ($status !== 'ready') {
        skip("the recording is $status (no audio synthesis on this machine?)");
    }
    $wav = $c->voice->calls->recording->get($call['id']);
    assert_true(is_string($wav), 'bytes');
    assert_same('RIFF', substr($wav, 0, 4));
    assert_same($meta['size_bytes'], strlen($wav));
    assert_same('audio/wav', $c->getLastResponse()->header('content-type'));
    assert_same('voice_call', $c->voice->calls->get($call['id'])['object']);
});
