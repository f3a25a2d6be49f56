"""Small threaded HTTP servers on 127.0.0.1 speaking the real OpenAI and Ollama wire protocols.

Tests drive the real ``ChatOpenAI`` / ``ChatOllama`` clients against them: nothing in the
client is patched. Behaviour is scriptable per test through ``server.reply`` (a function of
the parsed request returning text or a behaviour object), ``server.delay`` and the records
the server keeps (requests, max requests in flight).
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

DATA_BLOCK = re.compile(r"<section_data.*?</section_data>", re.S)


@dataclass
class Status:
    """Answer with this HTTP status (500, 429…) and a JSON error body."""

    code: int
    message: str = "server error"


@dataclass
class Hang:
    """Accept the request and never answer (until the server stops or ``seconds`` pass)."""

    seconds: float = 30.0


@dataclass
class Garbage:
    """A 200 response whose body is not the protocol at all."""

    body: bytes = b"<html>oops</html>"


@dataclass
class CutStream:
    """Stream ``text`` but drop the connection after ``after`` chunks, without the end marker."""

    text: str
    after: int = 2


@dataclass
class Endless:
    """Stream words forever (a looping model); bounded by ``seconds`` so a test never hangs."""

    seconds: float = 20.0
    text: str = ""

    def pieces(self) -> Iterator[str]:
        stop = time.monotonic() + self.seconds
        while time.monotonic() < stop:
            time.sleep(0.002)
            yield "again "


@dataclass
class ToolCalls:
    """An assistant turn that calls tools (OpenAI ``tool_calls``; ``finish_reason``
    ``tool_calls``): ``calls`` is ``[(name, arguments dict), …]``."""

    calls: list[tuple[str, dict[str, Any]]]
    text: str = ""

    def wire(self) -> list[dict[str, Any]]:
        return [
            {
                "id": f"call_{i}",
                "type": "function",
                "function": {"name": name, "arguments": json.dumps(arguments)},
            }
            for i, (name, arguments) in enumerate(self.calls, 1)
        ]


Reply = Callable[[dict[str, Any]], Any]


def messages_text(request: dict[str, Any]) -> tuple[str, str]:
    """(system text, user text) of a chat request."""
    system, user = [], []
    for message in request.get("messages", []):
        content = message.get("content")
        if isinstance(content, list):
            content = "".join(p.get("text", "") for p in content if isinstance(p, dict))
        (system if message.get("role") == "system" else user).append(str(content or ""))
    return "\n".join(system), "\n".join(user)


def outside_data(request: dict[str, Any]) -> str:
    """Everything the model is told outside the ``<section_data>`` quotes."""
    system, user = messages_text(request)
    return system + "\n" + DATA_BLOCK.sub("", user)


def kind_of(request: dict[str, Any]) -> str:
    """summary | heading_check | search | level | routing | answer, from the system prompt
    treerag sends."""
    system, _ = messages_text(request)
    if "which documents of a library" in system:
        return "routing"
    if "summarise one section" in system:
        return "summary"
    if "check the section headings" in system:
        return "heading_check"
    if "navigate a large document" in system:
        return "level"
    if "find the sections" in system:
        return "search"
    return "answer"


def outline_ids(request: dict[str, Any]) -> list[str]:
    _, user = messages_text(request)
    return re.findall(r"^\s*- \[([^\]]+)\]", user, re.M)


def default_reply(request: dict[str, Any]) -> str:
    """A plausible, deterministic model: picks outline lines sharing words with the question."""
    _, user = messages_text(request)
    kind = kind_of(request)
    if kind == "summary":
        # What the section holds, as a model would say it: its title and its first words
        # (a reply that only restated the title would be asked again).
        title = re.search(r"Section title: (.*)", user)
        quoted = re.search(r"<section_data[^>]*>\s*(.*?)\s*</section_data>", user, re.S)
        words = " ".join((quoted.group(1) if quoted else "").split()[:12]).rstrip(".")
        about = f"About {title.group(1) if title else 'it'}"
        return json.dumps({"summary": f"{about}: {words}." if words else f"{about}.",
                           "tags": ["Fake"]})  # fmt: skip
    if kind == "heading_check":  # every line found is a heading
        return json.dumps({"not_headings": []})
    question = re.search(r"Question: (.*)", user)
    words = {w.lower() for w in re.findall(r"[A-Za-z]{4,}", question.group(1) if question else "")}
    if kind in {"search", "level"}:
        lines = re.findall(r"^\s*- \[([^\]]+)\] (.*)$", user, re.M)
        hits = [
            nid
            for nid, line in lines
            if words & {w.lower() for w in re.findall(r"[A-Za-z]{4,}", line)}
        ]
        hits = hits or [lines[0][0]] if lines else []
        if kind == "level":
            with_children = {nid for nid, line in lines if re.search(r" \+\d+$", line)}
            return json.dumps(
                {
                    "reasoning": "matching words",
                    "open": [h for h in hits if h in with_children][:2],
                    "read": [h for h in hits if h not in with_children][:3],
                }
            )
        return json.dumps({"reasoning": "matching words", "node_list": hits[:3]})
    return "Answer from the sections."


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _Server

    def log_message(self, *args: Any) -> None:  # keep test output clean
        pass

    def do_GET(self) -> None:  # noqa: N802
        self._send_json(200, {"version": "0.6.3"} if "version" in self.path else {"models": []})

    def do_POST(self) -> None:  # noqa: N802
        fake: FakeLLMServer = self.server.fake
        length = int(self.headers.get("Content-Length") or 0)
        request = json.loads(self.rfile.read(length) or b"{}")
        with fake.lock:
            fake.requests.append({"path": self.path, "body": request, "t": time.perf_counter()})
            fake.in_flight += 1
            fake.max_in_flight = max(fake.max_in_flight, fake.in_flight)
        fake.wait_for_company()
        try:
            if fake.delay:
                time.sleep(fake.delay)
            try:
                behaviour = fake.reply(request)
            except Exception as exc:  # a broken test script answers 500 instead of hanging
                behaviour = Status(500, f"fake server script failed: {exc!r}")
            if isinstance(behaviour, Hang):
                fake.stopping.wait(behaviour.seconds)
                return
            if isinstance(behaviour, Status):
                self._send_json(
                    behaviour.code,
                    {"error": {"message": behaviour.message, "type": "server_error"}},
                )
                return
            if isinstance(behaviour, Garbage):
                self._send_raw(200, behaviour.body, "text/html")
                return
            if fake.protocol == "openai":
                self._openai(request, behaviour)
            else:
                self._ollama(request, behaviour)
        except (BrokenPipeError, ConnectionResetError):
            pass
        finally:
            with fake.lock:
                fake.in_flight -= 1

    # --- wire formats ---------------------------------------------------------------

    def _openai(self, request: dict[str, Any], behaviour: Any) -> None:
        text = (
            behaviour.text
            if isinstance(behaviour, (CutStream, Endless, ToolCalls))
            else str(behaviour)
        )
        cap = request.get("max_completion_tokens") or request.get("max_tokens")
        text, reason = _capped(text, cap)
        usage = _usage(request, text)
        model = request.get("model", "fake")
        if isinstance(behaviour, ToolCalls) and request.get("stream"):
            message = "the fake streams text only: call the model with invoke for tool calls"
            self._send_json(500, {"error": {"message": message, "type": "server_error"}})
            return
        if not request.get("stream"):
            message: dict[str, Any] = {"role": "assistant", "content": text}
            if isinstance(behaviour, ToolCalls):
                message = {"role": "assistant", "content": text or None}
                message["tool_calls"] = behaviour.wire()
            self._send_json(
                200,
                {
                    "id": "chatcmpl-fake",
                    "object": "chat.completion",
                    "created": int(time.time()),
                    "model": model,
                    "choices": [
                        {
                            "index": 0,
                            "message": message,
                            "finish_reason": "tool_calls"
                            if isinstance(behaviour, ToolCalls)
                            else reason,
                        }
                    ],
                    "usage": {
                        "prompt_tokens": usage[0],
                        "completion_tokens": usage[1],
                        "total_tokens": sum(usage),
                    },
                },
            )
            return
        self._start_stream("text/event-stream")
        base = {
            "id": "chatcmpl-fake",
            "object": "chat.completion.chunk",
            "created": int(time.time()),
            "model": model,
        }
        pieces = behaviour.pieces() if isinstance(behaviour, Endless) else _pieces(text)
        for i, piece in enumerate(pieces):
            if isinstance(behaviour, CutStream) and i >= behaviour.after:
                self.close_connection = True
                return
            delta = {"role": "assistant", "content": piece} if i == 0 else {"content": piece}
            self._write(
                f"data: {json.dumps({**base, 'choices': [{'index': 0, 'delta': delta, 'finish_reason': None}]})}\n\n"
            )
        self._write(
            f"data: {json.dumps({**base, 'choices': [{'index': 0, 'delta': {}, 'finish_reason': reason}]})}\n\n"
        )
        if (request.get("stream_options") or {}).get("include_usage"):
            u = {
                "prompt_tokens": usage[0],
                "completion_tokens": usage[1],
                "total_tokens": sum(usage),
            }
            self._write(f"data: {json.dumps({**base, 'choices': [], 'usage': u})}\n\n")
        self._write("data: [DONE]\n\n")

    def _ollama(self, request: dict[str, Any], behaviour: Any) -> None:
        text = behaviour.text if isinstance(behaviour, (CutStream, Endless)) else str(behaviour)
        text, reason = _capped(text, (request.get("options") or {}).get("num_predict"))
        usage = _usage(request, text)
        model = request.get("model", "fake")
        stamp = "2026-01-01T00:00:00Z"
        final = {
            "model": model,
            "created_at": stamp,
            "message": {"role": "assistant", "content": ""},
            "done": True,
            "done_reason": reason,
            "total_duration": 1000,
            "load_duration": 10,
            "prompt_eval_count": usage[0],
            "prompt_eval_duration": 10,
            "eval_count": usage[1],
            "eval_duration": 10,
        }
        if request.get("stream") is False:
            self._send_json(200, {**final, "message": {"role": "assistant", "content": text}})
            return
        self._start_stream("application/x-ndjson")
        pieces = behaviour.pieces() if isinstance(behaviour, Endless) else _pieces(text)
        for i, piece in enumerate(pieces):
            if isinstance(behaviour, CutStream) and i >= behaviour.after:
                self.close_connection = True
                return
            chunk = {
                "model": model,
                "created_at": stamp,
                "message": {"role": "assistant", "content": piece},
                "done": False,
            }
            self._write(json.dumps(chunk) + "\n")
        self._write(json.dumps(final) + "\n")

    # --- plumbing -------------------------------------------------------------------

    def _send_json(self, code: int, payload: Any) -> None:
        self._send_raw(code, json.dumps(payload).encode(), "application/json")

    def _send_raw(self, code: int, body: bytes, content_type: str) -> None:
        self.send_response(code)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _start_stream(self, content_type: str) -> None:
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True

    def _write(self, data: str) -> None:
        self.wfile.write(data.encode())
        self.wfile.flush()


def _capped(text: str, max_tokens: int | None) -> tuple[str, str]:
    """As a server does with a token cap (a word is a token here): the text cut at the cap,
    and why it ended ("length" when cut)."""
    words = re.findall(r"\S+\s*", text)
    if max_tokens and len(words) > int(max_tokens):
        return "".join(words[: int(max_tokens)]).rstrip(), "length"
    return text, "stop"


def _pieces(text: str) -> list[str]:
    """Stream word by word (keeping spaces), like a real model."""
    return re.findall(r"\S+\s*|\s+", text) or [""]


def _usage(request: dict[str, Any], text: str) -> tuple[int, int]:
    system, user = messages_text(request)
    return (len(system) + len(user)) // 4 + 1, len(text) // 4 + 1


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    fake: FakeLLMServer


GATHER_CAP_S = 120  # only reached when a client fails to send its calls in parallel


class FakeLLMServer:
    """One fake provider on a free port of 127.0.0.1."""

    def __init__(self, protocol: str, reply: Reply = default_reply) -> None:
        assert protocol in {"openai", "ollama"}
        self.protocol = protocol
        self.reply: Reply = reply
        self.delay = 0.0
        self.requests: list[dict[str, Any]] = []
        self.lock = threading.Lock()
        self.in_flight = 0
        self.max_in_flight = 0
        # Concurrency is shown by gathering, not by timing: while ``gather`` is set, each
        # request waits until that many are in flight at once, then all go on (a client that
        # never sends that many at once waits out GATHER_CAP_S and its test fails).
        self.gather = 0
        self._gathered = False
        self._company = threading.Condition(self.lock)
        self.stopping = threading.Event()
        self._server = _Server(("127.0.0.1", 0), _Handler)
        self._server.fake = self
        # A short poll: shutdown() waits up to one poll interval (0.5 s by default, which
        # made the teardown of the wire tests most of their run time).
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )

    @property
    def port(self) -> int:
        return self._server.server_address[1]

    @property
    def url(self) -> str:
        """The ``base_url`` its client expects."""
        root = f"http://127.0.0.1:{self.port}"
        return root + "/v1" if self.protocol == "openai" else root

    def chat_requests(self) -> list[dict[str, Any]]:
        path = "/v1/chat/completions" if self.protocol == "openai" else "/api/chat"
        return [r["body"] for r in self.requests if r["path"] == path]

    def kinds(self) -> list[str]:
        return [kind_of(r) for r in self.chat_requests()]

    def reset(self) -> None:
        with self.lock:
            self.requests.clear()
            self.max_in_flight = 0
            self._gathered = False

    def wait_for_company(self) -> None:
        """Hold this request until ``gather`` requests are in flight together (once)."""
        with self._company:
            if not self.gather or self._gathered:
                return
            if self.in_flight >= self.gather:
                self._gathered = True
                self._company.notify_all()
                return
            self._company.wait_for(
                lambda: self._gathered or self.stopping.is_set(), timeout=GATHER_CAP_S
            )

    def start(self) -> FakeLLMServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self.stopping.set()
        self._server.shutdown()
        self._server.server_close()


@pytest.fixture
def openai_server():
    server = FakeLLMServer("openai").start()
    yield server
    server.stop()


@pytest.fixture
def ollama_server():
    server = FakeLLMServer("ollama").start()
    yield server
    server.stop()


def openai_chat(
    server: FakeLLMServer, model: str = "fake-gpt", timeout: float = 5.0, **kwargs: Any
) -> Any:
    """The real ChatOpenAI client, pointed at the fake server."""
    from langchain_openai import ChatOpenAI

    return ChatOpenAI(
        model=model,
        api_key="test",
        base_url=server.url,
        timeout=timeout,
        max_retries=0,
        stream_usage=True,
        **kwargs,
    )


def ollama_chat(server: FakeLLMServer, model: str = "fake-llama", timeout: float = 5.0) -> Any:
    """The real ChatOllama client, pointed at the fake server."""
    from langchain_ollama import ChatOllama

    return ChatOllama(model=model, base_url=server.url, client_kwargs={"timeout": timeout})


@pytest.fixture(params=["openai", "ollama"])
def either_server(request):
    """The fake server of each protocol in turn: a test runs against both clients."""
    server = FakeLLMServer(request.param).start()
    yield server
    server.stop()


def models_from_settings(server: FakeLLMServer, **settings: Any) -> tuple[Any, Any]:
    """``make_llms`` pointed at the fake server, as a person's settings would make them."""
    from treerag_core.llm.providers import make_llms

    where = {"openai_base_url": server.url} if server.protocol == "openai" else {
        "ollama_host": server.url}  # fmt: skip
    return make_llms({**where, "llm_max_retries": 0, **settings})
