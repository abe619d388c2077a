<?php

declare(strict_types=1);

namespace Svc;

/**
 * Server-Sent Events, parsed as the spec says (https://html.spec.whatwg.org/multipage/server-sent-events.html):
 * lines end with CRLF, LF or CR; `event:`, `data:` (several joined with "\n"), `id:`, `retry:`; lines starting
 * with `:` are comments (heartbeats); a blank line ends an event; an event without data is not dispatched.
 */
final class Sse
{
    /**
     * The events of a stream whose body arrives in chunks (split anywhere, even inside a line).
     * `data` is JSON-decoded (objects as associative arrays) when it parses, else the string.
     *
     * @param iterable<string> $chunks
     * @return \Generator<int, array{event: string, data: mixed, id: string|null}>
     */
    public static function events(iterable $chunks): \Generator
    {
        foreach (self::parse($chunks) as $event) {
            yield ['event' => $event['event'], 'data' => self::decode($event['data']), 'id' => $event['id']];
        }
    }

    /**
     * The raw events (data as the string sent).
     *
     * @param iterable<string> $chunks
     * @return \Generator<int, array{event: string, data: string, id: string|null, retry: int|null}>
     */
    public static function parse(iterable $chunks): \Generator
    {
        $buffer = '';
        $event = '';
        $data = [];
        $hasData = false;
        $lastId = null;
        $retry = null;
        $first = true;
        $line = static function (string $line) use (&$event, &$data, &$hasData, &$lastId, &$retry): ?array {
            if ($line === '') {
                if (!$hasData) {
                    $event = '';
                    return null;
                }
                $out = ['event' => $event !== '' ? $event : 'message', 'data' => implode("\n", $data), 'id' => $lastId, 'retry' => $retry];
                $event = '';
                $data = [];
                $hasData = false;
                return $out;
            }
            if ($line[0] === ':') {
                return null;
            }
            $colon = strpos($line, ':');
            if ($colon === false) {
                $field = $line;
                $value = '';
            } else {
                $field = substr($line, 0, $colon);
                $value = substr($line, $colon + 1);
                if (str_starts_with($value, ' ')) {
                    $value = substr($value, 1);
                }
            }
            switch ($field) {
                case 'event':
                    $event = $value;
                    break;
                case 'data':
                    $data[] = $value;
                    $hasData = true;
                    break;
                case 'id':
                    if (!str_contains($value, "\0")) {
                        $lastId = $value;
                    }
                    break;
                case 'retry':
                    if (ctype_digit($value)) {
                        $retry = (int) $value;
                    }
                    break;
            }
            return null;
        };
        foreach ($chunks as $chunk) {
            if ($first) {
                $first = false;
                if (str_starts_with($chunk, "\xEF\xBB\xBF")) {
                    $chunk = substr($chunk, 3);
                }
            }
            $buffer .= $chunk;
            // A CR at the very end may be the first half of CRLF: wait for the next chunk.
            $pos = 0;
            while (preg_match('/\r\n|\n|\r(?!\z)/', $buffer, $m, PREG_OFFSET_CAPTURE, $pos)) {
                $at = $m[0][1];
                $text = substr($buffer, $pos, $at - $pos);
                $pos = $at + strlen($m[0][0]);
                $out = $line($text);
                if ($out !== null) {
                    yield $out;
                }
            }
            $buffer = (string) substr($buffer, $pos);
        }
        // The stream ended: a trailing CR ends its line; an event not ended by a blank line is dropped (spec).
        if (str_ends_with($buffer, "\r")) {
            $line(substr($buffer, 0, -1));
        }
    }

    private static function decode(string $data): mixed
    {
        $trimmed = ltrim($data);
        if ($trimmed === '' || !in_array($trimmed[0], ['{', '[', '"', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 't', 'f', 'n'], true)) {
            return $data;
        }
        try {
            return json_decode($data, true, 512, JSON_THROW_ON_ERROR | JSON_BIGINT_AS_STRING);
        } catch (\JsonException) {
            return $data;
        }
    }
}
