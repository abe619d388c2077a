<?php

// Error answers as typed exceptions.

declare(strict_types=1);

use Svc\Exception\ApiException;
use Svc\Exception\AuthenticationException;
use Svc\Exception\NotFoundException;
use Svc\Exception\ValidationException;
use Svc\SvcClient;

test('errors: 404 is a NotFoundException with code, status and request id', function () {
    $e = assert_throws(NotFoundException::class, fn () => live_client(['max_retries' => 0])->leads->get('lead_doesnotexist'));
    assert_same(404, $e->getHttpStatus());
    assert_same('resource_not_found', $e->getErrorCode());
    assert_starts_with('req_', $e->getRequestId());
    assert_instance_of(ApiException::class, $e);
    assert_true(str_contains($e->getMessage(), 'resource_not_found'), $e->getMessage());
});

test('errors: 422 is a ValidationException listing the field errors', function () {
    $e = assert_throws(ValidationException::class, fn () => live_client(['max_retries' => 0])->leads->create(['email' => 'not an email', 'unknown_field' => 1]));
    assert_same(422, $e->getHttpStatus());
    assert_true(count($e->getErrors()) >= 1, 'field errors');
    assert_true(is_string($e->getErrors()[0]['pointer']) && $e->getErrors()[0]['detail'] !== '', 'pointer and detail');
    assert_starts_with('req_', $e->getRequestId());
});

test('errors: 401 with a bad key is an AuthenticationException', function () {
    $client = new SvcClient('svc_live_nope', ['base_url' => env('SVC_BASE_URL'), 'max_retries' => 0]);
    $e = assert_throws(AuthenticationException::class, fn () => $client->leads->list());
    assert_same(401, $e->getHttpStatus());
    assert_true($e->getErrorCode() !== null, 'a code');
});
