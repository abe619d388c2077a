<?php

// Every operation of the served document has a method: its namespace (camelCase properties) and method name.

declare(strict_types=1);

use Svc\SvcClient;

test('operations: every operation of the document is a callable method of its namespace', function () {
    $ops = json_decode((string) file_get_contents(env('SVC_OPERATIONS_FIXTURE')), true, 512, JSON_THROW_ON_ERROR);
    assert_true(is_array($ops) && count($ops) > 0, 'the fixture lists operations');
    $client = new SvcClient('svc_live_unused', ['base_url' => 'http://127.0.0.1:9']);
    $found = 0;
    $missing = [];
    foreach ($ops as $op) {
        $target = $client;
        $where = '$client';
        foreach ($op['namespace'] as $segment) {
            if (!is_object($target) || !property_exists($target, $segment)) {
                $target = null;
                break;
            }
            $target = $target->{$segment};
            $where .= "->$segment";
        }
        if (is_object($target) && is_callable([$target, $op['method_name']])) {
            $found++;
            // The method sends what the document says: its HTTP method and path are in the generated call.
            $m = new \ReflectionMethod($target, $op['method_name']);
            $lines = file($m->getFileName());
            $code = implode('', array_slice($lines, $m->getStartLine() - 1, $m->getEndLine() - $m->getStartLine() + 1));
            assert_true(str_contains($code, "'{$op['http_method']}', '{$op['path']}'"), "$where->{$op['method_name']}() calls {$op['http_method']} {$op['path']}");
            assert_true(str_contains((string) $m->getDocComment(), "Operation `{$op['operation_id']}`"), "the doc comment names {$op['operation_id']}");
        } else {
            $missing[] = "{$op['operation_id']} ($where->{$op['method_name']})";
        }
    }
    assert_same([], $missing, 'operations without a method');
    assert_same(count($ops), $found);
    assert_same(count($ops), \Svc\Version::OPERATION_COUNT, 'the client was generated from the document the server serves');
});
