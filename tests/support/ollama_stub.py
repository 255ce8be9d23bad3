"""A loopback HTTP server that speaks enough of Ollama's API for tests.

It answers ``GET /api/tags`` (installed models), ``GET /api/version`` and
``POST /api/chat`` (streaming NDJSON and ``stream: false``) with scripted replies, and
logs every request it receives so tests can check what LiteLLM actually sent. Failure
modes (garbage bodies, HTTP 500, hanging, rejecting JSON-schema ``format``) let tests
exercise the fallbacks without a model.

Use the ``ollama_stub`` pytest fixture (register this module with
``pytest_plugins = ["tests.support.ollama_stub"]`` or import the fixture).
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Literal

import pytest

DEFAULT_MODELS = ("qwen2.5:3b-instruct", "qwen2.5:7b-instruct")
Mode = Literal["normal", "garbage", "error500", "hang", "reject_schema", "trickle", "flood", "never_answer"]
"""``trickle``: a chat reply sent one byte every ``trickle_interval`` s; ``flood``: a chat reply of
``flood_bytes``; ``never_answer``: chat requests are accepted and never answered (tags still work)."""


@dataclass
class StubReply:
    """A scripted answer: assistant ``content``, or a raw HTTP ``status``/``body`` pair."""

    content: str | None = None
    status: int = 200
    body: str | None = None
    delay: float = 0.0


Responder = Callable[[dict[str, Any]], "str | StubReply"]


@dataclass
class LoggedRequest:
    """One request the stub received."""

    method: str
    path: str
    body: dict[str, Any] | None
    headers: dict[str, str] = field(default_factory=dict)


def _tokens(text: str) -> list[str]:
    """Split a reply into streaming pieces (word plus trailing whitespace)."""
    pieces = re.findall(r"\S+\s*|\s+", text)
    return pieces or [""]


class _QuietServer(ThreadingHTTPServer):
    """Clients that time out or cancel hang up mid-reply; that is expected, not an error."""

    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        import sys

        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)


class OllamaStub:
    """The scripted fake Ollama server; ``url`` is its base URL (``http://127.0.0.1:<port>``)."""

    def __init__(self, models: tuple[str, ...] | list[str] = DEFAULT_MODELS) -> None:
        self.models: list[str] = list(models)
        self.replies: deque[str | StubReply] = deque()
        self.responder: Responder | None = None
        self.mode: Mode = "normal"
        self.default_reply: str = "{}"
        self.openai_only = False  # True: behave like an OpenAI-compatible server (no /api/tags)
        self.loaded: list[str] | None = None  # what GET /api/ps lists as in memory (None: 404, an old Ollama)
        self.trickle_interval = 3.0
        self.flood_bytes = 10 * 1024 * 1024
        self.requests: list[LoggedRequest] = []
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._server = _QuietServer(("127.0.0.1", 0), self._handler_class())
        self._server.daemon_threads = True
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, name="ollama-stub", daemon=True
        )

    # -- scripting -----------------------------------------------------------------
    @property
    def url(self) -> str:
        """Base URL to pass as ``api_base`` / ``CVRAG_LLM_URL``."""
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def push(self, *replies: str | StubReply) -> None:
        """Queue replies for the next ``/api/chat`` calls, in order."""
        with self._lock:
            self.replies.extend(replies)

    @property
    def chat_requests(self) -> list[dict[str, Any]]:
        """Bodies of the ``/api/chat`` (or OpenAI ``/v1/chat/completions``) requests received so far."""
        return [r.body or {} for r in self.requests if r.path in ("/api/chat", "/v1/chat/completions")]

    def _next_reply(self, request: dict[str, Any]) -> str | StubReply:
        with self._lock:
            if self.replies:
                return self.replies.popleft()
        if self.responder is not None:
            return self.responder(request)
        return self.default_reply

    # -- lifecycle -----------------------------------------------------------------
    def start(self) -> OllamaStub:
        """Serve in a background thread."""
        self._thread.start()
        return self

    def stop(self) -> None:
        """Release hanging handlers and shut the server down."""
        self._stop.set()
        self._server.shutdown()
        self._server.server_close()

    def __enter__(self) -> OllamaStub:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- HTTP ----------------------------------------------------------------------
    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        stub = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.0"

            def log_message(self, format: str, *args: Any) -> None:  # keep test output quiet
                return

            def _log(self, body: dict[str, Any] | None) -> None:
                with stub._lock:
                    stub.requests.append(
                        LoggedRequest(self.command, self.path.split("?")[0], body, dict(self.headers.items()))
                    )

            def _send(self, status: int, body: str, ctype: str = "application/json") -> None:
                data = body.encode("utf-8")
                self.send_response(status)
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def _hang(self) -> None:
                stub._stop.wait(timeout=120)

            def do_GET(self) -> None:
                self._log(None)
                path = self.path.split("?")[0]
                if stub.mode == "hang":
                    self._hang()
                    return
                if stub.mode == "error500":
                    self._send(500, json.dumps({"error": "internal server error"}))
                    return
                if path == "/v1/models" and stub.openai_only:
                    data = [{"id": m, "object": "model", "owned_by": "stub"} for m in stub.models]
                    self._send(200, json.dumps({"object": "list", "data": data}))
                elif path == "/api/tags" and not stub.openai_only:
                    if stub.mode == "garbage":
                        self._send(200, "<html>not ollama</html>", "text/html")
                        return
                    models = [
                        {
                            "name": m,
                            "model": m,
                            "modified_at": "2025-01-01T00:00:00Z",
                            "size": 1_000_000,
                            "digest": f"sha256:{abs(hash(m)):x}",
                            "details": {"format": "gguf", "family": "qwen2"},
                        }
                        for m in stub.models
                    ]
                    self._send(200, json.dumps({"models": models}))
                elif path == "/api/ps" and stub.loaded is not None and not stub.openai_only:
                    self._send(200, json.dumps({"models": [{"name": m, "model": m} for m in stub.loaded]}))
                elif path == "/api/version":
                    self._send(200, json.dumps({"version": "0.5.7"}))
                elif path == "/":
                    self._send(200, "Ollama is running", "text/plain")
                else:
                    self._send(404, json.dumps({"error": "not found"}))

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                try:
                    body = json.loads(raw or b"{}")
                except ValueError:
                    body = {"_raw": raw.decode("utf-8", "replace")}
                self._log(body)
                path = self.path.split("?")[0]
                if path == "/v1/chat/completions" and stub.openai_only:
                    self._openai_completion(body)
                    return
                if path != "/api/chat":
                    self._send(404, json.dumps({"error": "not found"}))
                    return
                if stub.mode in ("hang", "never_answer"):
                    self._hang()
                    return
                if stub.mode == "trickle":
                    self._trickle(body)
                    return
                if stub.mode == "flood":
                    self._flood(body)
                    return
                if stub.mode == "error500":
                    self._send(500, json.dumps({"error": "model runner has unexpectedly stopped"}))
                    return
                if stub.mode == "garbage":
                    self._send(200, "<<<garbage>>> not json at all", "text/plain")
                    return
                model = body.get("model", "")
                if model not in stub.models:
                    self._send(404, json.dumps({"error": f'model "{model}" not found, try pulling it first'}))
                    return
                if stub.mode == "reject_schema" and isinstance(body.get("format"), dict):
                    msg = (
                        "json: cannot unmarshal object into Go struct field ChatRequest.format of type string"
                    )
                    self._send(400, json.dumps({"error": msg}))
                    return
                reply = stub._next_reply(body)
                if isinstance(reply, str):
                    reply = StubReply(content=reply)
                if reply.delay:
                    stub._stop.wait(timeout=reply.delay)
                if reply.body is not None or reply.status != 200:
                    self._send(reply.status, reply.body if reply.body is not None else "{}")
                    return
                content = reply.content or ""
                if body.get("stream", True):
                    self._stream(model, content)
                else:
                    self._send(200, json.dumps(self._final(model, content, content)))

            def _openai_completion(self, body: dict[str, Any]) -> None:
                """``POST /v1/chat/completions`` as llama.cpp's server answers it (non-streaming)."""
                fmt = (body.get("response_format") or {}).get("type")
                if stub.mode == "reject_schema" and fmt == "json_schema":  # llama-cpp-python 0.3: a 500
                    self._send(500, json.dumps({"error": {"message": "1 validation error: ('body', 'response_format', "
                                                          "'type') Input should be 'text' or 'json_object'"}}))
                    return
                reply = stub._next_reply(body)
                content = reply if isinstance(reply, str) else (reply.content or "")
                self._send(200, json.dumps({
                    "id": "chatcmpl-stub", "object": "chat.completion", "created": int(time.time()),
                    "model": body.get("model", ""),
                    "choices": [{"index": 0, "message": {"role": "assistant", "content": content},
                                 "finish_reason": "stop"}],
                    "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
                }))

            def _trickle(self, body: dict[str, Any]) -> None:
                """Headers at once, then the reply one byte every ``trickle_interval`` seconds."""
                model = body.get("model", "")
                content = "A slow answer that never seems to end. " * 20
                if body.get("stream", True):
                    data = "".join(json.dumps({"model": model, "message": {"role": "assistant", "content": p},
                                               "done": False}) + "\n" for p in _tokens(content))
                else:
                    data = json.dumps(self._final(model, content, content))
                self.send_response(200)
                self.send_header("Content-Type", "application/x-ndjson")
                self.end_headers()
                self.wfile.flush()
                for ch in data.encode("utf-8"):
                    if stub._stop.wait(timeout=stub.trickle_interval):
                        return
                    try:
                        self.wfile.write(bytes([ch]))
                        self.wfile.flush()
                    except OSError:
                        return

            def _flood(self, body: dict[str, Any]) -> None:
                """A reply of ``flood_bytes`` characters (streamed in 64 KB pieces, or one JSON body)."""
                model = body.get("model", "")
                piece = "x" * 65536
                n = max(1, stub.flood_bytes // len(piece))
                try:
                    if not body.get("stream", True):
                        self._send(200, json.dumps(self._final(model, piece * n, "x")))
                        return
                    self.send_response(200)
                    self.send_header("Content-Type", "application/x-ndjson")
                    self.end_headers()
                    for _ in range(n):
                        if stub._stop.is_set():
                            return
                        line = {"model": model, "message": {"role": "assistant", "content": piece}, "done": False}
                        self.wfile.write((json.dumps(line) + "\n").encode("utf-8"))
                    self.wfile.write((json.dumps(self._final(model, "", "x")) + "\n").encode("utf-8"))
                except OSError:
                    return

            def _final(self, model: str, content: str, whole: str) -> dict[str, Any]:
                return {
                    "model": model,
                    "created_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                    "message": {"role": "assistant", "content": content},
                    "done_reason": "stop",
                    "done": True,
                    "total_duration": 1000,
                    "prompt_eval_count": 10,
                    "eval_count": max(1, len(_tokens(whole))),
                }

            def _stream(self, model: str, content: str) -> None:
                self.send_response(200)
                self.send_header("Content-Type", "application/x-ndjson")
                self.end_headers()
                for piece in _tokens(content):
                    line = {
                        "model": model,
                        "created_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                        "message": {"role": "assistant", "content": piece},
                        "done": False,
                    }
                    self.wfile.write((json.dumps(line) + "\n").encode("utf-8"))
                    self.wfile.flush()
                self.wfile.write((json.dumps(self._final(model, "", content)) + "\n").encode("utf-8"))
                self.wfile.flush()

        return Handler


@pytest.fixture
def ollama_stub() -> Iterator[OllamaStub]:
    """A running :class:`OllamaStub` on a free loopback port, stopped after the test."""
    stub = OllamaStub().start()
    try:
        yield stub
    finally:
        stub.stop()
