"""What the live tests share: the SVC_* variables the node wrapper (python.sdk.test.ts) sets, clients, the proxy."""
from __future__ import annotations

import json
import os
import unittest
import urllib.request
import uuid
from typing import Any, Dict, Optional

import svc

LIVE = bool(os.environ.get("SVC_BASE_URL") and os.environ.get("SVC_API_KEY"))
live_only = unittest.skipUnless(LIVE, "needs the live server: run sdk/python/python.sdk.test.ts (it sets SVC_* variables)")


def env(name: str) -> str:
    return os.environ[name]


def client(**overrides: Any) -> svc.Client:
    """A live-mode client on the live server."""
    options: Dict[str, Any] = {"api_key": env("SVC_API_KEY"), "base_url": env("SVC_BASE_URL")}
    options.update(overrides)
    return svc.Client(**options)


def unique(prefix: str = "py") -> str:
    return "%s-%s" % (prefix, uuid.uuid4().hex[:12])


def proxy(mode: Optional[str] = None) -> Dict[str, Any]:
    """POST a mode to the proxy's control URL (or GET its state): { mode, requests: [...] }."""
    data = json.dumps({"mode": mode}).encode() if mode else None
    req = urllib.request.Request(env("SVC_PROXY_CONTROL_URL"), data=data, method="POST" if mode else "GET", headers={"content-type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read().decode())  # type: ignore[no-any-return]


def load_json(path: str) -> Any:
    with open(path, encoding="utf-8") as f:
        return json.load(f)
