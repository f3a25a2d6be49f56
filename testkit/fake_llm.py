"""A tiny OpenAI chat-completions server on 127.0.0.1 that sleeps before every reply.

Why not ``testkit.fake_llm_servers`` (the tests' scriptable servers): the benchmarks need
few behaviours (a fixed delay, a valid summary JSON, for ``bench.load --engine model`` an
outline pick and an answer streamed token by token) and must also serve treerag's client
from another venv.
"""

from __future__ import annotations

import json
import re
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

# Says more than any title (a summary that only restates its title is asked for once more).
SUMMARY = json.dumps(
    {"summary": "Net sales rose 12% on higher volumes in the Americas.", "tags": ["Acme", "2024"]}
)
# The streamed answer: about 150 words (a model's 200 tokens), then a line that marks its end.
ANSWER_END = "(End of the model's answer.)"
ANSWER = (
    "According to the statements read, the figure asked about is reported in the section "
    "cited here [S1]. "
    * 10
    + "The comparison with the prior year follows the same statement and the same notes, and "
    "the amounts are in millions of dollars unless stated otherwise [S1].\n\n" + ANSWER_END
)


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
        request = json.loads(body or b"{}")
        if request.get("stream"):
            self._stream(request, server.token_s)
            return
        payload = {
            "id": "chatcmpl-bench",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": "fake",
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": _reply(request, server.answer)},
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

    def _stream(self, request: dict[str, Any], token_s: float) -> None:
        """The answer word by word (server-sent events), ``token_s`` apart, as models do."""
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        base = {"id": "chatcmpl-bench", "object": "chat.completion.chunk", "model": "fake",
                "created": int(time.time())}  # fmt: skip
        try:
            for word in re.findall(r"\S+\s*", ANSWER):
                self._event({**base, "choices": [{"index": 0, "delta": {"content": word}}]})
                time.sleep(token_s)
            self._event({**base, "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]})
            self._send_chunk(b"data: [DONE]\n\n")
            self._send_chunk(b"")
        except (BrokenPipeError, ConnectionResetError):  # the client stopped reading: done
            self.close_connection = True

    def _event(self, payload: dict[str, Any]) -> None:
        self._send_chunk(f"data: {json.dumps(payload)}\n\n".encode())

    def _send_chunk(self, data: bytes) -> None:
        self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
        self.wfile.flush()


def _reply(request: dict[str, Any], answer: Any = None) -> str:
    """A section summary; for a search call the first three sections of the outline; for a
    library routing call the first card; for an answer call, ``answer(prompt text)`` when
    the server was given one (``bench.support``: a right, a wrong, a garbled answer)."""
    text = "\n".join(str(m.get("content") or "") for m in request.get("messages", []))
    if answer is not None and "You answer questions about documents" in text:
        return answer(text)
    ids = re.findall(r"^\s*- \[([^\]]+)\]", text, re.M)[:3]
    if "which documents of a library" in text:  # library routing: the first card shown
        return json.dumps({"reasoning": "the first card", "documents": [1]})
    if "navigate a large document" in text:  # one level of a large outline: read, open none
        return json.dumps({"reasoning": "the outline's first sections", "open": [], "read": ids})
    if "find the sections" in text:
        return json.dumps({"reasoning": "the outline's first sections", "node_list": ids})
    return SUMMARY


class _Server(ThreadingHTTPServer):
    # The default listen backlog (5) drops connections when 20 workers connect at once; the
    # client then waits ~1 s for a SYN retry, which looked like poor parallel efficiency.
    request_queue_size = 128
    daemon_threads = True


class FakeLLM:
    """``with FakeLLM(delay=0.2) as llm: llm.url`` → ``http://127.0.0.1:PORT/v1``.

    ``token_s``: the pause between two words of a streamed answer."""

    def __init__(self, delay: float = 0.2, token_s: float = 0.02) -> None:
        self.delay, self.token_s = delay, token_s
        self.answer: Any = None  # answer calls: a function of the prompt text, or the summary
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
