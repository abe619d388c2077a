<?php

// The PHP client's test suite: `php sdk/php/tests/run.php [filter]`. Runs every *_test.php here (unit tests,
// then those against the live server, which read the SVC_* variables sdk/php/php.sdk.test.ts sets), prints
// each test's name and result, and exits 1 when any failed.

declare(strict_types=1);

error_reporting(E_ALL);
ini_set('display_errors', 'stderr');
set_error_handler(static function (int $severity, string $message, string $file, int $line): bool {
    throw new \ErrorException($message, 0, $severity, $file, $line);
});

require __DIR__ . '/../autoload.php';
require __DIR__ . '/lib.php';

$files = glob(__DIR__ . '/*_test.php') ?: [];
sort($files);
foreach ($files as $file) {
    require $file;
}

$filter = $argv[1] ?? null;
$passed = $failed = $skipped = 0;
$started = microtime(true);
foreach ($GLOBALS['__tests'] as [$name, $fn]) {
    if ($filter !== null && !str_contains($name, $filter)) {
        continue;
    }
    $t = microtime(true);
    try {
        $fn();
        $passed++;
        printf("ok   %s (%d ms)\n", $name, (int) round((microtime(true) - $t) * 1000));
    } catch (SkipTest $e) {
        $skipped++;
        printf("skip %s: %s\n", $name, $e->getMessage());
    } catch (\Throwable $e) {
        $failed++;
        printf("FAIL %s (%d ms)\n     %s: %s\n     at %s:%d\n", $name, (int) round((microtime(true) - $t) * 1000), get_class($e), $e->getMessage(), $e->getFile(), $e->getLine());
        foreach (array_slice(explode("\n", $e->getTraceAsString()), 0, 6) as $frame) {
            echo "       $frame\n";
        }
    }
    flush();
}
printf("\n%d passed, %d failed, %d skipped in %.1f s (PHP %s)\n", $passed, $failed, $skipped, microtime(true) - $started, PHP_VERSION);
exit($failed > 0 ? 1 : 0);
