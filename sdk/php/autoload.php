<?php

// The client without Composer: `require 'path/to/sdk/php/autoload.php';` registers a PSR-4 autoloader for
// `Svc\` → src/ (what Composer's autoload section does when the package is installed with it).

declare(strict_types=1);

spl_autoload_register(static function (string $class): void {
    $prefix = 'Svc\\';
    if (strncmp($class, $prefix, strlen($prefix)) !== 0) {
        return;
    }
    $file = __DIR__ . '/src/' . str_replace('\\', '/', substr($class, strlen($prefix))) . '.php';
    if (is_file($file)) {
        require $file;
    }
});
