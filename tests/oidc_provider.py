"""A small OpenID Connect provider on 127.0.0.1 for the sign-in tests.

Discovery, authorize (a sign-in form: the test types a user name), token (authorization
code with PKCE S256 and client_secret_basic / _post) and JWKS; ID tokens are RS256 JWTs
signed with joserfc (Authlib's JOSE library) and carry ``email``, ``name``, ``nonce`` and a
``groups`` claim. Enough of the protocol for Streamlit's real ``st.login`` flow (Authlib's
client) to sign a person in; nothing here is meant for anything but tests.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import secrets
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlencode, urlparse

from joserfc import jwt
from joserfc.jwk import RSAKey

CLIENT_ID = "treerag-test"
CLIENT_SECRET = "test-secret-" + "x" * 20
# Seconds an ID token is valid: long enough for a slow CI machine, short like a real one.
TOKEN_LIFETIME_S = 600


class Provider:
    """The provider's state: users, issued codes, the signing key."""

    def __init__(self, users: dict[str, dict[str, Any]]) -> None:
        self.users = users  # user name → extra claims (email, groups, …)
        self.key = RSAKey.generate_key(2048, parameters={"kid": "test-key"})
        self.codes: dict[str, dict[str, Any]] = {}
        self.issuer = ""
        self.token_requests = 0
        self.server: ThreadingHTTPServer | None = None

    def start(self) -> str:
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self.issuer = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self.issuer

    def stop(self) -> None:
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()

    def metadata(self) -> dict[str, Any]:
        return {
            "issuer": self.issuer,
            "authorization_endpoint": self.issuer + "/authorize",
            "token_endpoint": self.issuer + "/token",
            "jwks_uri": self.issuer + "/jwks",
            "response_types_supported": ["code"],
            "subject_types_supported": ["public"],
            "id_token_signing_alg_values_supported": ["RS256"],
            "code_challenge_methods_supported": ["S256"],
            "token_endpoint_auth_methods_supported": ["client_secret_basic", "client_secret_post"],
            "scopes_supported": ["openid", "email", "profile"],
        }

    def id_token(self, user: str, nonce: str | None) -> str:
        now = int(time.time())
        claims = {
            "iss": self.issuer,
            "sub": f"sub-{user}",
            "aud": CLIENT_ID,
            "iat": now,
            "exp": now + TOKEN_LIFETIME_S,
            "name": user,
            **self.users[user],
        }
        if nonce:
            claims["nonce"] = nonce
        return jwt.encode({"alg": "RS256", "kid": "test-key"}, claims, self.key)


def _handler(provider: Provider) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:  # keep test output quiet
            pass

        def _send(self, status: int, body: bytes, kind: str = "application/json") -> None:
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(body)

        def _json(self, data: Any, status: int = 200) -> None:
            self._send(status, json.dumps(data).encode())

        def do_GET(self) -> None:  # noqa: N802 - http.server's name
            url = urlparse(self.path)
            if url.path == "/.well-known/openid-configuration":
                self._json(provider.metadata())
            elif url.path == "/jwks":
                self._json({"keys": [provider.key.as_dict(private=False)]})
            elif url.path == "/authorize":
                self._sign_in_form(url.query)
            else:
                self._send(404, b"{}")

        def _sign_in_form(self, query: str) -> None:
            params = {k: v[0] for k, v in parse_qs(query).items()}
            if params.get("client_id") != CLIENT_ID or params.get("response_type") != "code":
                self._json({"error": "invalid_request"}, 400)
                return
            hidden = "".join(
                f'<input type="hidden" name="{html.escape(k)}" value="{html.escape(v)}">'
                for k, v in params.items()
            )
            page = (
                "<!doctype html><title>Test identity provider</title><h1>Sign in</h1>"
                f'<form method="post" action="/authorize">{hidden}'
                '<label>User name <input name="username" autocomplete="off"></label>'
                '<button type="submit">Continue</button></form>'
            )
            self._send(200, page.encode(), "text/html; charset=utf-8")

        def _form(self) -> dict[str, str]:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length).decode()
            return {k: v[0] for k, v in parse_qs(body).items()}

        def do_POST(self) -> None:  # noqa: N802
            url = urlparse(self.path)
            if url.path == "/authorize":
                self._authorize(self._form())
            elif url.path == "/token":
                self._token(self._form())
            else:
                self._send(404, b"{}")

        def _authorize(self, form: dict[str, str]) -> None:
            user = form.get("username", "")
            if user not in provider.users:
                self._send(403, b"unknown user", "text/plain")
                return
            code = secrets.token_urlsafe(24)
            provider.codes[code] = {
                "user": user,
                "nonce": form.get("nonce"),
                "redirect_uri": form.get("redirect_uri"),
                "challenge": form.get("code_challenge"),
            }
            target = form["redirect_uri"] + "?" + urlencode({"code": code, "state": form["state"]})
            self.send_response(302)
            self.send_header("Location", target)
            self.end_headers()

        def _client_ok(self, form: dict[str, str]) -> bool:
            auth = self.headers.get("Authorization") or ""
            if auth.startswith("Basic "):
                pair = base64.b64decode(auth[6:]).decode()
                return pair == f"{CLIENT_ID}:{CLIENT_SECRET}"
            return (form.get("client_id"), form.get("client_secret")) == (CLIENT_ID, CLIENT_SECRET)

        def _token(self, form: dict[str, str]) -> None:
            provider.token_requests += 1
            grant = provider.codes.pop(form.get("code", ""), None)
            if not self._client_ok(form):
                self._json({"error": "invalid_client"}, 401)
                return
            if grant is None or grant["redirect_uri"] != form.get("redirect_uri"):
                self._json({"error": "invalid_grant"}, 400)
                return
            if grant["challenge"]:
                verifier = form.get("code_verifier", "").encode()
                digest = hashlib.sha256(verifier).digest()
                expected = base64.urlsafe_b64encode(digest).rstrip(b"=").decode()
                if expected != grant["challenge"]:
                    self._json({"error": "invalid_grant", "error_description": "PKCE"}, 400)
                    return
            self._json(
                {
                    "access_token": secrets.token_urlsafe(24),
                    "token_type": "Bearer",
                    "expires_in": TOKEN_LIFETIME_S,
                    "id_token": provider.id_token(grant["user"], grant["nonce"]),
                }
            )

    return Handler
