"""A tiny OpenAI chat-completions server on 127.0.0.1 that sleeps before every reply.

Why our own and not ``tests/fake_llm_servers.py``: that module imports pytest and lives in
the test tree; the benchmark needs only one behaviour (a fixed delay, a valid summary
JSON) and must also serve treerag's client from another venv.
"""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

SUMMARY = json.dumps({"summary": "A short summary of the section.", "tags": ["Acme", "2024"]})


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args: Any) -> None:
        pass

    def do_POST(self) -> None:  # noqa: N802 - http.server's naming
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length)
        server: FakeLLM = self.server.owner  # type: ignore[attr-defined]
        server.record(len(body))
        time.sleep(server.delay)
        payload = {
            "id": "chatcmpl-bench",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": "fake",
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": SUMMARY},
                    "finish_reason": "stop",
                }
            ],
            "usage": {"prompt_tokens": len(body) // 4, "completion_tokens": 20, "total_tokens": 0},
        }
        data = json.dumps(payload).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


class _Server(ThreadingHTTPServer):
    # The default listen backlog (5) drops connections when 20 workers connect at once; the
    # client then waits ~1 s for a SYN retry, which looked like poor parallel efficiency.
    request_queue_size = 128
    daemon_threads = True


class FakeLLM:
    """``with FakeLLM(delay=0.2) as llm: llm.url`` → ``http://127.0.0.1:PORT/v1``."""

    def __init__(self, delay: float = 0.2) -> None:
        self.delay = delay
        self.requests = 0
        self._lock = threading.Lock()
        self._server = _Server(("127.0.0.1", 0), _Handler)
        self._server.owner = self  # type: ignore[attr-defined]
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def record(self, size: int) -> None:
        with self._lock:
            self.requests += 1

    def __enter__(self) -> FakeLLM:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
