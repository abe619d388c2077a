<?php

// Create, read, update and list in every module, against the live server.

declare(strict_types=1);

use Svc\Page;
use Svc\SvcClient;

/** Whether a page (walked to the end) holds an item with this id. */
function page_has(Page $page, string $id): bool
{
    foreach ($page->autoPagingIterator() as $item) {
        if (($item['id'] ?? null) === $id) {
            return true;
        }
    }
    return false;
}

test('resources: workspaces: current, get, update', function () {
    $c = live_client();
    $ws = $c->workspaces->current->get();
    assert_same('workspace', $ws['object']);
    assert_same(env('SVC_WORKSPACE_ID'), $ws['id']);
    assert_same($ws['id'], $c->workspaces->get($ws['id'])['id']);
    $name = unique('Acme PHP ');
    $updated = $c->workspaces->update($ws['id'], ['name' => $name, 'metadata' => ['sdk' => 'php']]);
    assert_same($name, $updated['name']);
    assert_same('php', $updated['metadata']['sdk']);
    assert_same($name, $c->workspaces->current->get()['name']);
    $response = $c->getLastResponse();
    assert_same(200, $response->status);
    assert_starts_with('req_', $response->requestId());
});

test('resources: inbox: conversations, messages, tags', function () {
    $c = live_client();
    $conv = $c->inbox->conversations->create(['channel' => 'email', 'subject' => 'PHP SDK', 'contact' => ['name' => 'Ada', 'email' => 'ada@example.com']]);
    assert_same('conversation', $conv['object']);
    assert_same($conv['id'], $c->inbox->conversations->get($conv['id'])['id']);
    $updated = $c->inbox->conversations->update($conv['id'], ['subject' => 'PHP SDK (updated)']);
    assert_same('PHP SDK (updated)', $updated['subject']);
    assert_true(page_has($c->inbox->conversations->list(['limit' => 100]), $conv['id']), 'the conversation is listed');

    $message = $c->inbox->conversations->messages->send($conv['id'], ['content' => 'hi from PHP']);
    assert_same('message', $message['object']);
    assert_same('hi from PHP', $message['content']);
    $messages = $c->inbox->conversations->messages->list($conv['id']);
    assert_instance_of(Page::class, $messages);
    assert_true(in_array($message['id'], array_column($messages->data, 'id'), true), 'the message is listed');

    // A POST without a body.
    assert_same('resolved', $c->inbox->conversations->resolve($conv['id'])['status']);

    $tag = $c->inbox->tags->create(['name' => unique('php-')]);
    assert_same('inbox_tag', $tag['object']);
    assert_true(page_has($c->inbox->tags->list(['limit' => 100]), $tag['id']), 'the tag is listed');
});

test('resources: webhooks: endpoints create, get, update, list, delete', function () {
    $c = live_client();
    $endpoint = $c->webhooks->endpoints->create(['url' => 'https://example.com/hook', 'description' => 'PHP SDK']);
    assert_same('webhook_endpoint', $endpoint['object']);
    assert_starts_with('whsec_', $endpoint['secret']);
    assert_same('https://example.com/hook', $c->webhooks->endpoints->get($endpoint['id'])['url']);
    assert_same('PHP SDK (updated)', $c->webhooks->endpoints->update($endpoint['id'], ['description' => 'PHP SDK (updated)'])['description']);
    assert_true(page_has($c->webhooks->endpoints->list(), $endpoint['id']), 'the endpoint is listed');
    $deleted = $c->webhooks->endpoints->delete($endpoint['id']);
    assert_same(true, $deleted['deleted']);
    assert_throws(\Svc\Exception\NotFoundException::class, fn () => $c->webhooks->endpoints->get($endpoint['id']));
});

test('resources: leads: create, get, update, list', function () {
    $c = live_client();
    $email = unique('lead-') . '@example.com';
    $lead = $c->leads->create(['name' => 'Grace', 'email' => $email, 'tags' => ['php']]);
    assert_same('lead', $lead['object']);
    assert_same($email, $lead['email']);
    assert_same($lead['id'], $c->leads->get($lead['id'])['id']);
    assert_same('Hopper', $c->leads->update($lead['id'], ['company' => 'Hopper'])['company']);
    $page = $c->leads->list(['email' => $email]);
    assert_same([$lead['id']], array_column($page->data, 'id'));
});

test('resources: knowledge: bases, documents (JSON upload), search', function () {
    $c = live_client();
    $kb = $c->knowledge->bases->create(['name' => unique('PHP KB ')]);
    assert_same('knowledge_base', $kb['object']);
    assert_same($kb['id'], $c->knowledge->bases->get($kb['id'])['id']);
    assert_same('About the PHP client', $c->knowledge->bases->update($kb['id'], ['description' => 'About the PHP client'])['description']);
    assert_true(page_has($c->knowledge->bases->list(), $kb['id']), 'the base is listed');
    $doc = $c->knowledge->bases->documents->upload($kb['id'], ['title' => 'Refunds', 'text' => 'Refunds are possible within 30 days of purchase with the receipt.']);
    assert_same('knowledge_document', $doc['object']);
    assert_same($doc['id'], $c->knowledge->documents->get($doc['id'])['id']);
    assert_true(page_has($c->knowledge->bases->documents->list($kb['id']), $doc['id']), 'the document is listed');
    $search = $c->knowledge->search(['query' => 'refund receipt', 'knowledge_base_ids' => [$kb['id']]]);
    assert_same('knowledge_search', $search['object']);
    assert_true(is_array($search['data'] ?? $search['results'] ?? null), 'search results');
});

test('resources: bots: create, get, update, list', function () {
    $c = live_client();
    $bot = $c->bots->create(['name' => unique('PHP bot ')]);
    assert_same('bot', $bot['object']);
    assert_same($bot['id'], $c->bots->get($bot['id'])['id']);
    assert_same('Helps with PHP', $c->bots->update($bot['id'], ['description' => 'Helps with PHP'])['description']);
    assert_true(page_has($c->bots->list(), $bot['id']), 'the bot is listed');
    $clone = $c->bots->clone($bot['id'], ['name' => unique('PHP clone ')]);
    assert_true($clone['id'] !== $bot['id'], 'bots->clone() (a keyword as a method name)');
});

test('resources: agents: create, get, update, list', function () {
    $c = live_client();
    $agent = $c->agents->create(['name' => unique('PHP agent ')]);
    assert_same('agent', $agent['object']);
    assert_same($agent['id'], $c->agents->get($agent['id'])['id']);
    assert_same('Helps with PHP', $c->agents->update($agent['id'], ['description' => 'Helps with PHP'])['description']);
    assert_true(page_has($c->agents->list(), $agent['id']), 'the agent is listed');
});

test('resources: voice: numbers and calls lists', function () {
    $c = live_client();
    $numbers = $c->voice->numbers->list();
    assert_instance_of(Page::class, $numbers);
    assert_same('list', $numbers['object']);
    $calls = $c->voice->calls->list(['limit' => 5]);
    assert_same('list', $calls['object']);
});

test('resources: compliance: retention, PII redaction, audit log', function () {
    $c = live_client();
    $retention = $c->compliance->retention->get();
    assert_same('retention_policies', $retention['object']);
    $redaction = $c->compliance->piiRedaction->redact(['text' => 'Mail ada@example.com or call +1 415 555 0100']);
    assert_same('pii_redaction', $redaction['object']);
    assert_true($redaction['entity_count'] >= 1, 'entities found');
    assert_true(!str_contains($redaction['items'][0]['redacted'], 'ada@example.com'), 'the email is masked');
    $log = $c->compliance->auditLog->list(['limit' => 5]);
    assert_same('list', $log['object']);
    assert_true(count($log) >= 1, 'the writes above are audited');
});

test('resources: health, events, API root; the sandbox base with a test key', function () {
    $c = live_client();
    assert_same('health', $c->health->get()['object']);
    assert_same('list', $c->events->list()['object']);
    assert_same(true, $c->getApiRoot()['livemode']);
    $sandbox = new SvcClient(env('SVC_TEST_KEY'), ['base_url' => env('SVC_SANDBOX_URL')]);
    $root = $sandbox->getApiRoot();
    assert_same(false, $root['livemode']);
    // The origin alone: the client appends /sandbox/v2 for a svc_test_ key.
    $origin = substr(env('SVC_SANDBOX_URL'), 0, -strlen('/sandbox/v2'));
    $derived = new SvcClient(['api_key' => env('SVC_TEST_KEY'), 'base_url' => $origin]);
    assert_same(env('SVC_SANDBOX_URL'), $derived->getBaseUrl());
    assert_same(false, $derived->workspaces->current->get()['livemode']);
});
