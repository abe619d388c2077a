<?php

// A scripted HTTP server for the unit tests (not a test file): `php fake_server.php <script.json> <log.json>`
// prints the port it listens on, then answers one connection per scripted response, in order:
// { "status": 200, "headers": {…}, "chunks": [base64, …], "delay_ms": 0 } (delay_ms between chunks), or
// { "drop": true } to close the connection without answering. Each request it read is appended to the log
// (method, path, headers, body). It exits after the last response.

declare(strict_types=1);

[$script, $log] = [json_decode((string) file_get_contents($argv[1]), true), $argv[2]];
$server = stream_socket_server('tcp://127.0.0.1:0', $errno, $errstr);
if ($server === false) {
    fwrite(STDERR, "listen: $errstr\n");
    exit(1);
}
echo substr(strrchr(stream_socket_get_name($server, false), ':'), 1), "\n";
fflush(STDOUT);
$seen = [];
foreach ($script as $response) {
    $conn = stream_socket_accept($server, 30);
    if ($conn === false) {
        exit(1);
    }
    $head = '';
    while (!str_contains($head, "\r\n\r\n") && ($line = fgets($conn)) !== false) {
        $head .= $line;
    }
    $lines = explode("\r\n", trim($head));
    [$method, $path] = explode(' ', array_shift($lines));
    $headers = [];
    foreach ($lines as $l) {
        [$k, $v] = explode(':', $l, 2);
        $headers[strtolower(trim($k))] = trim($v);
    }
    $body = '';
    $length = (int) ($headers['content-length'] ?? 0);
    while (strlen($body) < $length && !feof($conn)) {
        $body .= fread($conn, $length - strlen($body));
    }
    $seen[] = ['method' => $method, 'path' => $path, 'headers' => $headers, 'body' => $body];
    file_put_contents($log, json_encode($seen));
    if (!empty($response['drop'])) {
        fclose($conn);
        continue;
    }
    $out = "HTTP/1.1 {$response['status']} X\r\nConnection: close\r\n";
    foreach ($response['headers'] ?? [] as $k => $v) {
        $out .= "$k: $v\r\n";
    }
    fwrite($conn, $out . "\r\n");
    foreach ($response['chunks'] ?? [] as $i => $chunk) {
        if ($i > 0 && !empty($response['delay_ms'])) {
            usleep($response['delay_ms'] * 1000);
        }
        fwrite($conn, base64_decode($chunk));
        fflush($conn);
    }
    fclose($conn);
}
