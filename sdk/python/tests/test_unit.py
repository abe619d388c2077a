"""The runtime without a server: URLs, params, retries, pagination, SSE parsing, packaging."""
from __future__ import annotations

import ast
import io
import json
import os
import re
import unittest
from typing import Any, Dict, List, Optional, Tuple

import svc
from svc._http import Headers, HTTPTransport, _Sent, backoff_delay, encode_query, retry_after_delay
from svc.sse import iter_events

PKG = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "svc")


class FakeTransport(HTTPTransport):
    """Answers from a script: each item is an exception to raise or (status, headers, body)."""

    def __init__(self, script: List[Any]) -> None:
        self.slept: List[float] = []
        super().__init__(sleep=self.slept.append)
        self.script = list(script)
        self.calls: List[Dict[str, Any]] = []

    def _attempt(self, method: str, url: str, headers: Any, body: Optional[bytes], timeout: float) -> _Sent:
        self.calls.append({"method": method, "url": url, "headers": dict(headers), "body": body, "timeout": timeout})
        item = self.script.pop(0)
        if isinstance(item, BaseException):
            raise item
        status, hdrs, payload = item
        data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
        return _Sent(status, Headers(hdrs), io.BytesIO(data))


JSON = {"content-type": "application/json"}
PROBLEM = {"content-type": "application/problem+json", "x-request-id": "req_hdr"}


def fake_client(script: List[Any], **kw: Any) -> Tuple[svc.Client, FakeTransport]:
    t = FakeTransport(script)
    return svc.Client(api_key="svc_live_k", base_url="https://api.test", transport=t, **kw), t


class BaseUrl(unittest.TestCase):
    def test_resolution(self) -> None:
        r = svc.resolve_base_url
        self.assertEqual(r(None, "svc_live_x"), "https://api.example.com/v2")
        self.assertEqual(r(None, "svc_test_x"), "https://api.example.com/sandbox/v2")
        self.assertEqual(r("https://h.io/", "svc_live_x"), "https://h.io/v2")
        self.assertEqual(r("https://h.io", "svc_test_x"), "https://h.io/sandbox/v2")
        self.assertEqual(r("http://127.0.0.1:9/v2", "svc_test_x"), "http://127.0.0.1:9/v2")
        self.assertEqual(r("http://127.0.0.1:9/sandbox/v2/", "svc_live_x"), "http://127.0.0.1:9/sandbox/v2")
        self.assertEqual(svc.Client(api_key="svc_test_a").base_url, "https://api.example.com/sandbox/v2")

    def test_api_key_from_environment(self) -> None:
        old = os.environ.get("SVC_API_KEY")
        os.environ["SVC_API_KEY"] = "svc_test_from_env"
        try:
            self.assertEqual(svc.Client().api_key, "svc_test_from_env")
        finally:
            if old is None:
                del os.environ["SVC_API_KEY"]
            else:
                os.environ["SVC_API_KEY"] = old


class Requests(unittest.TestCase):
    def test_get_query_and_headers(self) -> None:
        c, t = fake_client([(200, JSON, {"object": "list", "data": [], "has_more": False, "next_cursor": None})])
        c.leads.list({"limit": 2, "status": None}, source="api", extra_headers={"X-Extra": "1"})
        call = t.calls[0]
        self.assertEqual(call["method"], "GET")
        self.assertEqual(call["url"], "https://api.test/v2/leads?limit=2&source=api")
        h = call["headers"]
        self.assertEqual(h["Authorization"], "Bearer svc_live_k")
        self.assertEqual(h["Svc-Api-Version"], svc.API_VERSION)
        self.assertTrue(h["User-Agent"].startswith("svc-python/%s (python " % svc.VERSION))
        self.assertEqual(h["X-Extra"], "1")
        self.assertNotIn("Idempotency-Key", h)
        self.assertIsNone(call["body"])

    def test_post_body_path_params_and_kwargs(self) -> None:
        c, t = fake_client([(201, JSON, {"id": "msg_1"})])
        out = c.inbox.conversations.messages.send("conv/1 2", {"content": "a"}, private=True, idempotency_key="k1", api_version="2.3.4", timeout=5)
        self.assertEqual(out, {"id": "msg_1"})
        call = t.calls[0]
        self.assertEqual(call["url"], "https://api.test/v2/inbox/conversations/conv%2F1%202/messages")
        self.assertEqual(json.loads(call["body"]), {"content": "a", "private": True})
        self.assertEqual(call["headers"]["Content-Type"], "application/json")
        self.assertEqual(call["headers"]["Idempotency-Key"], "k1")
        self.assertEqual(call["headers"]["Svc-Api-Version"], "2.3.4")
        self.assertEqual(call["timeout"], 5)

    def test_post_without_body_sends_none(self) -> None:
        c, t = fake_client([(200, JSON, {"id": "conv_1"})])
        c.inbox.conversations.resolve("conv_1")
        self.assertIsNone(t.calls[0]["body"])
        self.assertNotIn("Content-Type", t.calls[0]["headers"])
        self.assertRegex(t.calls[0]["headers"]["Idempotency-Key"], r"^[0-9a-f-]{36}$")

    def test_query_params_of_a_post_go_in_the_url(self) -> None:
        c, t = fake_client([(200, JSON, {"object": "webhook_playground_receipt"})])
        c.webhooks.playground.capture_post("tok", {"limit": 3, "hello": "world"})
        self.assertEqual(t.calls[0]["url"], "https://api.test/v2/webhooks/playground/tok?limit=3")
        self.assertEqual(json.loads(t.calls[0]["body"]), {"hello": "world"})

    def test_encode_query(self) -> None:
        self.assertEqual(
            encode_query({"a": [1, 2], "b": True, "c": False, "d": None, "e": "x y"}),
            [("a", "1"), ("a", "2"), ("b", "true"), ("c", "false"), ("e", "x y")],
        )

    def test_empty_path_param_is_refused(self) -> None:
        c, _ = fake_client([])
        with self.assertRaises(ValueError):
            c.leads.get("")

    def test_file_operations_answer_bytes(self) -> None:
        c, t = fake_client([(200, {"content-type": "audio/wav"}, b"RIFF....WAVE"), (200, JSON, {"object": "voice_recording"})])
        self.assertEqual(c.voice.calls.recording.get("call_1"), b"RIFF....WAVE")
        self.assertTrue(t.calls[0]["headers"]["Accept"].startswith("audio/wav"))
        self.assertEqual(c.voice.calls.recording.get("call_1", format="json"), {"object": "voice_recording"})


class Retries(unittest.TestCase):
    def test_connection_errors_are_retried_with_one_idempotency_key(self) -> None:
        c, t = fake_client([svc.APIConnectionError("reset"), svc.APITimeoutError("slow"), (201, JSON, {"id": "lead_1"})])
        self.assertEqual(c.leads.create(name="x"), {"id": "lead_1"})
        keys = {call["headers"]["Idempotency-Key"] for call in t.calls}
        self.assertEqual(len(t.calls), 3)
        self.assertEqual(len(keys), 1)
        self.assertEqual(len(t.slept), 2)
        self.assertEqual(c.last_response.retries, 2)

    def test_gives_up_after_max_retries(self) -> None:
        c, t = fake_client([svc.APIConnectionError("a"), svc.APIConnectionError("b")], max_retries=1)
        with self.assertRaises(svc.APIConnectionError):
            c.health.get()
        self.assertEqual(len(t.calls), 2)

    def test_statuses(self) -> None:
        for status in (429, 500, 502, 503, 504):
            c, t = fake_client([(status, PROBLEM, {"status": status}), (200, JSON, {"ok": True})])
            self.assertEqual(c.health.get(), {"ok": True})
            self.assertEqual(len(t.calls), 2, status)
        for status, cls in ((400, svc.InvalidRequestError), (401, svc.AuthenticationError), (403, svc.PermissionDeniedError), (404, svc.NotFoundError), (409, svc.ConflictError), (422, svc.ValidationError), (501, svc.ServerError)):
            c, t = fake_client([(status, PROBLEM, {"status": status, "code": "c%d" % status, "detail": "d"}), (200, JSON, {})])
            with self.assertRaises(cls) as ctx:
                c.health.get()
            self.assertEqual(len(t.calls), 1, status)  # never retried
            self.assertEqual(ctx.exception.status, status)
            self.assertEqual(ctx.exception.code, "c%d" % status)
            self.assertEqual(ctx.exception.request_id, "req_hdr")  # from the header when the body has none

    def test_idempotency_key_in_use_is_not_retried(self) -> None:
        c, t = fake_client([(409, PROBLEM, {"status": 409, "code": "idempotency_key_in_use", "request_id": "req_body"}), (201, JSON, {})])
        with self.assertRaises(svc.ConflictError) as ctx:
            c.leads.create(name="x")
        self.assertEqual(len(t.calls), 1)
        self.assertEqual(ctx.exception.request_id, "req_body")

    def test_retry_after_and_backoff(self) -> None:
        c, t = fake_client([(503, {"retry-after": "3"}, b""), (429, {"retry-after": "600"}, b""), (500, {}, b"oops"), (200, JSON, {})], max_retries=3)
        c.health.get()
        self.assertEqual(t.slept[:2], [3.0, 60.0])
        self.assertTrue(2.0 * 0.75 <= t.slept[2] <= 2.0, t.slept)  # the third retry: 0.5 s x 2^2
        for n in range(8):
            d = backoff_delay(n)
            self.assertLessEqual(d, 8.0)
            self.assertGreaterEqual(d, min(0.5 * 2**n, 8.0) * 0.75)
        self.assertEqual(retry_after_delay(Headers({"Retry-After": "1"})), 1.0)
        self.assertIsNone(retry_after_delay(Headers({})))
        self.assertIsNone(retry_after_delay(Headers({"Retry-After": "soon"})))
        self.assertEqual(retry_after_delay(Headers({"Retry-After": "Wed, 21 Oct 2015 07:28:00 GMT"})), 0.0)

    def test_last_response_after_an_error(self) -> None:
        c, _ = fake_client([(404, PROBLEM, {"status": 404, "code": "resource_not_found"})])
        with self.assertRaises(svc.NotFoundError):
            c.leads.get("lead_x")
        self.assertEqual(c.last_response.status, 404)
        self.assertEqual(c.last_response.request_id, "req_hdr")

    def test_with_options(self) -> None:
        c, t = fake_client([(200, JSON, {})])
        d = c.with_options(max_retries=0, api_version="2.3.4")
        self.assertEqual((d.max_retries, d.api_version, d.base_url), (0, "2.3.4", c.base_url))
        d.health.get()
        self.assertEqual(t.calls[0]["headers"]["Svc-Api-Version"], "2.3.4")
        with self.assertRaises(TypeError):
            c.with_options(nope=1)


class Pages(unittest.TestCase):
    def test_auto_paging_keeps_params(self) -> None:
        page = lambda data, more, cur: (200, JSON, {"object": "list", "data": data, "has_more": more, "next_cursor": cur})  # noqa: E731
        c, t = fake_client([page([1, 2], True, "c1"), page([3, 4], True, "c2"), page([5], False, None)])
        first = c.leads.list(limit=2, status="new")
        self.assertEqual(list(first), [1, 2])
        self.assertEqual(first[1], 2)
        self.assertEqual(first["next_cursor"], "c1")
        self.assertEqual(list(first.auto_paging_iter()), [1, 2, 3, 4, 5])
        self.assertEqual([c_["url"].split("?")[1] for c_ in t.calls], ["limit=2&status=new", "limit=2&status=new&cursor=c1", "limit=2&status=new&cursor=c2"])

    def test_no_next_page(self) -> None:
        p = svc.Page({"object": "list", "data": [], "has_more": False, "next_cursor": None})
        self.assertIsNone(p.next_page())
        self.assertEqual(list(p.auto_paging_iter()), [])
        self.assertTrue(bool(p))


class Sse(unittest.TestCase):
    def test_spec_parsing(self) -> None:
        raw = (
            "\ufeff: comment\n"
            "event: step.started\n"
            "id: s:1\n"
            'data: {"a":\n'
            "data: 1}\n"
            "\n"
            "data: plain text\r\n"
            "retry: 1500\r\n"
            "\r\n"
            "event: ignored-without-data\n"
            "\n"
            "data:no-space\n"
            "id\n"
            "\n"
            "data: dropped at the end without a blank line\n"
        )
        events = list(iter_events(io.BytesIO(raw.encode("utf-8")).readlines()))
        self.assertEqual(len(events), 3)
        self.assertEqual((events[0].event, events[0].id, events[0].data), ("step.started", "s:1", {"a": 1}))
        self.assertEqual((events[1].event, events[1].id, events[1].data, events[1].retry), ("message", "s:1", "plain text", 1500))
        self.assertEqual((events[2].data, events[2].id), ("no-space", ""))

    def test_stream_object(self) -> None:
        c, t = fake_client([])
        body = io.BytesIO(b"event: completed\ndata: {\"x\": 1}\nid: a:2\n\n")

        def attempt(method: str, url: str, headers: Any, b: Any, timeout: float) -> _Sent:
            t.calls.append({"headers": dict(headers)})
            return _Sent(200, Headers({"content-type": "text/event-stream"}), body)

        t._attempt = attempt  # type: ignore[method-assign]
        with c.agents.dry_run.stream("agt_1", input="hi") as stream:
            events = list(stream)
        self.assertEqual([e.to_dict() for e in events], [{"event": "completed", "data": {"x": 1}, "id": "a:2"}])
        self.assertEqual(stream.last_event_id, "a:2")
        self.assertEqual(t.calls[0]["headers"]["Accept"], "text/event-stream")
        self.assertNotIn("Idempotency-Key", t.calls[0]["headers"])
        self.assertTrue(body.closed)


class Packaging(unittest.TestCase):
    def test_pyproject_version_is_the_client_version(self) -> None:
        with open(os.path.join(os.path.dirname(PKG), "pyproject.toml"), encoding="utf-8") as f:
            text = f.read()
        self.assertEqual(re.search(r'^version = "([^"]+)"', text, re.M).group(1), svc.VERSION)  # type: ignore[union-attr]
        self.assertIn('name = "svc-client"', text)
        self.assertIn('requires-python = ">=3.9"', text)
        self.assertTrue(os.path.exists(os.path.join(PKG, "py.typed")))

    def test_sources_parse_as_python_3_9(self) -> None:
        for root, _, files in os.walk(PKG):
            for name in files:
                if name.endswith(".py"):
                    path = os.path.join(root, name)
                    with open(path, encoding="utf-8") as f:
                        ast.parse(f.read(), path, feature_version=(3, 9))

    def test_generated_files_say_so(self) -> None:
        gen = os.path.join(PKG, "_generated")
        for root, _, files in os.walk(gen):
            for name in files:
                with open(os.path.join(root, name), encoding="utf-8") as f:
                    self.assertTrue(f.readline().startswith("# Generated by sdk/generator from the OpenAPI document (API "), name)

    def test_models_are_typed_dicts(self) -> None:
        from typing import get_type_hints

        lead = svc.models.Lead
        self.assertIn("email", get_type_hints(lead))
        self.assertIn("from", svc.models.VoiceCall.__annotations__)  # a keyword key: functional TypedDict
        self.assertFalse(svc.params.ListLeadsParams.__total__)


if __name__ == "__main__":
    unittest.main()
