<?php

// Server-Sent Events: agents->dryRun->stream() yields the parsed events as they arrive.

declare(strict_types=1);

test('sse: agents->dryRun->stream() yields the events, the last one completed', function () {
    $c = live_client();
    $agent = $c->agents->create(['name' => unique('PHP stream ')]);
    $events = [];
    foreach ($c->agents->dryRun->stream($agent['id'], ['input' => 'Say hello']) as $event) {
        $events[] = $event;
    }
    assert_true(count($events) >= 1, 'at least one event');
    $last = end($events);
    assert_same('completed', $last['event']);
    assert_true(is_array($last['data']) && isset($last['data']['dry_run']), 'the completed event carries the whole dry-run, decoded');
    assert_true(is_string($last['id']) && $last['id'] !== '', 'events have ids');
    assert_same('text/event-stream', explode(';', (string) $c->getLastResponse()->header('content-type'))[0]);
    // The same dry-run without streaming.
    $dry = $c->agents->dryRun($agent['id'], ['input' => 'Say hello']);
    assert_same($last['data']['dry_run']['object'], $dry['object']);
});

test('sse: an error before the stream opens is an exception', function () {
    $c = live_client(['max_retries' => 0]);
    assert_throws(\Svc\Exception\NotFoundException::class, fn () => $c->agents->dryRun->stream('agt_doesnotexist', ['input' => 'x']));
});
