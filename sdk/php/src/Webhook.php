<?php

declare(strict_types=1);

namespace Svc;

use Svc\Exception\SignatureVerificationException;

/**
 * Webhook signatures. Every delivery carries two signatures of the same raw body; either verifies it:
 *
 * - `Svc-Status-Signature: t=<unix>,v1=<hex>[,v1=<hex>…]`, v1 = hex HMAC-SHA256 of "<t>.<body>" keyed with the
 *   whole secret string ("whsec_…");
 * - Standard Webhooks: `webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64>[ v1,<base64>…]`, the
 *   base64 HMAC-SHA256 of "<id>.<timestamp>.<body>" keyed with the base64-decoded secret after "whsec_".
 *
 * Timestamps more than `tolerance` seconds away from now (either way) are refused; signatures are compared in
 * constant time (hash_equals). Pass the body exactly as received (`file_get_contents('php://input')`), never
 * re-encoded JSON. Headers: any case; a list per name (PSR-7 getHeaders()) or `$_SERVER` (HTTP_WEBHOOK_ID…).
 */
final class Webhook
{
    public const DEFAULT_TOLERANCE = 300;
    public const SVC_HEADER = 'svc-status-signature';

    /**
     * Verifies the delivery and answers its event, decoded (`['type' => 'webhook.test', 'data' => …]`).
     *
     * `$headers`: the request's headers (any case, `HTTP_` server names too), or the `Svc-Status-Signature`
     * value alone (`t=…,v1=…`), as Stripe's constructEvent takes its signature header.
     *
     * @param array<string, string|list<string>>|string $headers
     * @return array<string, mixed>
     * @throws SignatureVerificationException
     */
    public static function constructEvent(string $payload, array|string $headers, string $secret, int $tolerance = self::DEFAULT_TOLERANCE, ?int $now = null): array
    {
        self::verify($payload, $headers, $secret, $tolerance, $now);
        try {
            $event = json_decode($payload, true, 512, JSON_THROW_ON_ERROR | JSON_BIGINT_AS_STRING);
        } catch (\JsonException $e) {
            throw new SignatureVerificationException('The webhook body is not JSON: ' . $e->getMessage(), 0, $e);
        }
        if (!is_array($event)) {
            throw new SignatureVerificationException('The webhook body is not a JSON object');
        }
        return $event;
    }

    /**
     * Verifies the delivery; throws when no signature verifies.
     *
     * @param array<string, string|list<string>>|string $headers the headers, or the Svc-Status-Signature value
     * @throws SignatureVerificationException
     */
    public static function verify(string $payload, array|string $headers, string $secret, int $tolerance = self::DEFAULT_TOLERANCE, ?int $now = null): void
    {
        if ($secret === '') {
            throw new SignatureVerificationException('The webhook secret is empty');
        }
        $h = self::normalize($headers);
        $now ??= time();
        $failures = [];
        if (isset($h[self::SVC_HEADER])) {
            $failure = self::checkSvc($payload, implode(',', $h[self::SVC_HEADER]), $secret, $tolerance, $now);
            if ($failure === null) {
                return;
            }
            $failures[] = $failure;
        }
        if (isset($h['webhook-signature']) || isset($h['webhook-id']) || isset($h['webhook-timestamp'])) {
            $failure = self::checkStandard($payload, $h, $secret, $tolerance, $now);
            if ($failure === null) {
                return;
            }
            $failures[] = $failure;
        }
        throw new SignatureVerificationException($failures === []
            ? 'No webhook signature: neither Svc-Status-Signature nor webhook-id/webhook-timestamp/webhook-signature is present'
            : implode('; ', $failures));
    }

    /** The Svc-Status-Signature header for a body (to test your endpoint). */
    public static function signatureHeader(string $payload, string $secret, ?int $timestamp = null): string
    {
        $t = $timestamp ?? time();
        return "t=$t,v1=" . hash_hmac('sha256', "$t.$payload", $secret);
    }

    /**
     * The Standard Webhooks headers for a body (to test your endpoint).
     *
     * @return array{webhook-id: string, webhook-timestamp: string, webhook-signature: string}
     */
    public static function standardHeaders(string $payload, string $secret, string $id, ?int $timestamp = null): array
    {
        $t = $timestamp ?? time();
        $key = self::standardKey($secret) ?? throw new SignatureVerificationException('The secret is not "whsec_" followed by base64');
        return [
            'webhook-id' => $id,
            'webhook-timestamp' => (string) $t,
            'webhook-signature' => 'v1,' . base64_encode(hash_hmac('sha256', "$id.$t.$payload", $key, true)),
        ];
    }

    /** Null when it verifies, else why not. */
    private static function checkSvc(string $payload, string $header, string $secret, int $tolerance, int $now): ?string
    {
        $t = null;
        $signatures = [];
        foreach (explode(',', $header) as $part) {
            $kv = explode('=', trim($part), 2);
            if (count($kv) !== 2) {
                continue;
            }
            if ($kv[0] === 't' && $t === null) {
                $t = $kv[1];
            } elseif ($kv[0] === 'v1') {
                $signatures[] = strtolower($kv[1]);
            }
        }
        if ($t === null || !ctype_digit($t) || $signatures === []) {
            return 'Svc-Status-Signature is malformed (expected t=<unix>,v1=<hex>)';
        }
        if (abs($now - (int) $t) > $tolerance) {
            return "Svc-Status-Signature timestamp $t is more than $tolerance s from now";
        }
        $expected = hash_hmac('sha256', "$t.$payload", $secret);
        foreach ($signatures as $signature) {
            if (hash_equals($expected, $signature)) {
                return null;
            }
        }
        return 'No Svc-Status-Signature v1 signature matches the body and secret';
    }

    /**
     * @param array<string, list<string>> $h
     */
    private static function checkStandard(string $payload, array $h, string $secret, int $tolerance, int $now): ?string
    {
        $id = $h['webhook-id'][0] ?? null;
        $t = $h['webhook-timestamp'][0] ?? null;
        $header = implode(' ', $h['webhook-signature'] ?? []);
        if ($id === null || $t === null || trim($header) === '') {
            return 'Standard Webhooks headers are incomplete (webhook-id, webhook-timestamp and webhook-signature are all needed)';
        }
        $t = trim($t);
        if (!ctype_digit($t)) {
            return 'webhook-timestamp is not a unix time';
        }
        if (abs($now - (int) $t) > $tolerance) {
            return "webhook-timestamp $t is more than $tolerance s from now";
        }
        $key = self::standardKey($secret);
        if ($key === null) {
            return 'The secret is not "whsec_" followed by base64, as Standard Webhooks signatures need';
        }
        $expected = base64_encode(hash_hmac('sha256', "$id.$t.$payload", $key, true));
        foreach (preg_split('/\s+/', trim($header)) ?: [] as $part) {
            $vs = explode(',', $part, 2);
            if (count($vs) === 2 && $vs[0] === 'v1' && hash_equals($expected, $vs[1])) {
                return null;
            }
        }
        return 'No webhook-signature v1 signature matches the body and secret';
    }

    private static function standardKey(string $secret): ?string
    {
        $encoded = str_starts_with($secret, 'whsec_') ? substr($secret, 6) : $secret;
        $key = base64_decode($encoded, true);
        return $key === false || $key === '' ? null : $key;
    }

    /**
     * @param array<string, string|list<string>>|string $headers
     * @return array<string, list<string>> lower-case names
     */
    private static function normalize(array|string $headers): array
    {
        if (is_string($headers)) {
            return [self::SVC_HEADER => [$headers]];
        }
        $out = [];
        foreach ($headers as $name => $value) {
            $name = strtolower((string) $name);
            if (str_starts_with($name, 'http_')) {
                $name = str_replace('_', '-', substr($name, 5));
            }
            foreach (is_array($value) ? $value : [$value] as $v) {
                $out[$name][] = (string) $v;
            }
        }
        return $out;
    }
}
