"""Every operation of the served document has a method, where the client's naming puts it."""
from __future__ import annotations

import inspect
import re
import unittest

import svc

from ._support import client, env, live_only, load_json


def snake(s: str) -> str:
    return re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", s).lower()


@live_only
class EveryOperationHasAMethod(unittest.TestCase):
    def test_every_operation_of_the_fixture(self) -> None:
        ops = load_json(env("SVC_OPERATIONS_FIXTURE"))
        self.assertGreater(len(ops), 0)
        c = client()
        found = set()
        missing = []
        for op in ops:
            target = c
            path = [snake(n) for n in op["namespace"]] + [snake(op["method_name"])]
            try:
                for name in path:
                    target = getattr(target, name)
            except AttributeError:
                missing.append("%s (client.%s)" % (op["operation_id"], ".".join(path)))
                continue
            if not callable(target):
                missing.append("%s (client.%s is not callable)" % (op["operation_id"], ".".join(path)))
                continue
            fn = target.__call__ if not inspect.ismethod(target) else target
            # The doc comment names the operation it sends.
            self.assertIn("``%s``" % op["operation_id"], fn.__doc__ or "", ".".join(path))
            self.assertIn("%s %s" % (op["http_method"], op["path"]), fn.__doc__ or "", ".".join(path))
            found.add((id(getattr(fn, "__func__", fn)), op["operation_id"]))
        self.assertEqual(missing, [])
        self.assertEqual(len(found), len(ops))
        self.assertEqual(len({f for f, _ in found}), len(ops), "two operations share one method")
        self.assertEqual(svc._version.OPERATION_COUNT, len(ops), "the generated client is stale: npm run sdk:generate -- python")

    def test_names_are_snake_case(self) -> None:
        c = client()
        self.assertTrue(callable(c.webhook_endpoints.list))
        self.assertTrue(callable(c.agents.dry_run))
        self.assertTrue(callable(c.agents.dry_run.stream))
        self.assertTrue(callable(c.compliance.pii_redaction.redact))
        self.assertTrue(callable(c.inbox.conversations.messages.send))
        self.assertTrue(callable(c.get_api_root))


if __name__ == "__main__":
    unittest.main()
