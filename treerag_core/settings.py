"""One ``Settings`` object: every setting treerag reads, declared once with its type, default
and description, read from the environment and a ``.env`` file the same way by the app, the
command line, the workers and the MCP server.

Why pydantic-settings: it types and validates each value as it is read (a wrong number is a
``ConfigError`` naming the variable, not a crash deep in a reader), reads a ``.env`` file
exactly like the environment, keeps secrets out of every ``repr`` and log line (``SecretStr``)
and lets a program or a test pass values to the initialiser instead of changing the process
environment. It came with the MCP SDK already; hand-written code did all of this three ways.

Precedence, highest first: values given to ``Settings(...)``, the environment, the ``.env``
file in the working directory, the defaults below. Variable names are ``TREERAG_`` and the
field's name in capitals, except the providers' own (``OPENAI_API_KEY``, ``OPENAI_BASE_URL``,
``OLLAMA_HOST``). ``docs/configuration.md`` is made from these fields
(``python -m treerag_core settings --markdown``) and a test keeps it current.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import AliasChoices, Field, SecretStr, ValidationError
from pydantic_settings import BaseSettings, SettingsConfigDict

from .errors import ConfigError
from .limits import DEFAULT_LIMITS as _L
from .limits import Limits

DEFAULT_REGISTRY = "indexed_docs.json"
ENV_PREFIX = "TREERAG_"
# The settings that are secrets: never shown, printed or logged.
SECRETS = ("openai_api_key", "mcp_token")
# The groups the configuration page lists the settings under, in this order.
GROUPS = ("Storage", "Models", "Model calls", "Reading documents", "Sign-in", "MCP server")


def _setting(default: Any, group: str, description: str, *, env: str = "", **bounds: Any) -> Any:
    """A field with its group and description; ``env`` names a variable without the prefix;
    ``bounds`` are pydantic's (``gt=0``)."""
    extra: dict[str, Any] = {"group": group}
    if env:
        return Field(
            default, description=description, validation_alias=AliasChoices(env, ENV_PREFIX + env),
            json_schema_extra={**extra, "env": env}, **bounds,
        )  # fmt: skip
    return Field(default, description=description, json_schema_extra=extra, **bounds)


class Settings(BaseSettings):
    """Every setting, typed; ``Settings()`` reads the environment and ``.env``."""

    model_config = SettingsConfigDict(
        env_prefix=ENV_PREFIX, env_file=".env", env_file_encoding="utf-8", extra="ignore",
        frozen=True, populate_by_name=True,
    )  # fmt: skip

    # --- Storage
    registry: str = _setting(
        DEFAULT_REGISTRY, "Storage",
        "Where documents are kept: a registry file (TinyDB, beside it a folder of documents) "
        "or a `postgresql://` URL for a team server, its replicas and workers.",
    )  # fmt: skip
    pg_pool_size: int = _setting(
        8, "Storage",
        "PostgreSQL connections one process holds at most (a Streamlit server runs one script "
        "thread per browser session; a worker needs two).",
    )  # fmt: skip
    indexing: Literal["in-process", "workers"] = _setting(
        "in-process", "Storage",
        "`workers`: the app queues uploads in the database for `python -m treerag_core worker` "
        "processes (PostgreSQL only); `in-process`: the app indexes them itself.",
    )  # fmt: skip

    # --- Models
    provider: Literal["", "openai", "ollama", "offline"] = _setting(
        "", "Models",
        "`openai`, `ollama` or `offline`; empty: OpenAI when a key or base URL is set, else "
        "Ollama when a host is set, else the offline engine (no model, no network).",
    )  # fmt: skip
    openai_api_key: SecretStr | None = _setting(
        None, "Models", "The OpenAI API key (never shown or logged).", env="OPENAI_API_KEY"
    )
    openai_base_url: str = _setting(
        "", "Models",
        "An OpenAI-compatible server (llama.cpp, vLLM, LM Studio, …); no key needed there.",
        env="OPENAI_BASE_URL",
    )  # fmt: skip
    ollama_host: str = _setting("", "Models", "An Ollama server's address.", env="OLLAMA_HOST")
    search_model: str = _setting(
        "", "Models",
        "The model that reads outlines and summarises sections (default: gpt-4o-mini / "
        "llama3.2).",
    )  # fmt: skip
    answer_model: str = _setting(
        "", "Models", "The model that writes answers (default: gpt-4o / the search model)."
    )
    search_mode: Literal["checked", "model", "offline"] = _setting(
        "checked", "Models",
        "How the search model's choice of sections is used: `checked` against the offline "
        "ranking (a weak model's leap is read beside the ranking's best), `model` as it is, "
        "`offline` (the ranking chooses, the model only answers).",
    )  # fmt: skip
    temperature: float = _setting(0.0, "Models", "Sampling temperature of every model call.")
    llm_max_retries: int = _setting(1, "Models", "Retries of a failed model call.")

    # --- Model calls: each kind's output cap (tokens) and timeout (seconds); unset, the
    # kind's default from CALL_BUDGETS in treerag_core/llm/budgets.py (each with its why)
    llm_timeout: float | None = _setting(
        None,
        "Model calls",
        "Every kind of call's timeout that has none of its own (seconds).",
        gt=0,
    )
    search_max_tokens: int | None = _setting(None, "Model calls", "A search reply's cap.", gt=0)
    search_timeout: float | None = _setting(None, "Model calls", "A search call's timeout.", gt=0)
    summary_max_tokens: int | None = _setting(None, "Model calls", "A summary's cap.", gt=0)
    summary_timeout: float | None = _setting(None, "Model calls", "A summary's timeout.", gt=0)
    heading_check_max_tokens: int | None = _setting(
        None,
        "Model calls",
        "The cap of the model's check of headings found by their look.",
        gt=0,
    )
    heading_check_timeout: float | None = _setting(
        None, "Model calls", "The heading check's timeout.", gt=0
    )
    answer_max_tokens: int | None = _setting(None, "Model calls", "An answer's cap.", gt=0)
    answer_timeout: float | None = _setting(
        None,
        "Model calls",
        "The longest wait between two pieces of a streamed answer.",
        gt=0,
    )

    # --- Reading documents (see treerag_core/limits.py for why each default)
    max_file_bytes: int = _setting(_L.max_file_bytes, "Reading documents", "Largest file read.")
    max_text_bytes: int = _setting(
        _L.max_text_bytes, "Reading documents", "Largest text-like file (txt, md, html)."
    )
    max_pages: int = _setting(_L.max_pages, "Reading documents", "Most pages read of a document.")
    max_sections: int = _setting(_L.max_sections, "Reading documents", "Most sections kept.")
    max_section_chars: int = _setting(
        _L.max_section_chars, "Reading documents",
        "A section whose own text is longer is cut into parts.",
    )  # fmt: skip
    max_attachments: int = _setting(
        _L.max_attachments, "Reading documents", "Attachments read per e-mail or mailbox."
    )
    max_sheet_rows: int = _setting(_L.max_sheet_rows, "Reading documents", "Rows read per sheet.")
    max_sheet_cells: int = _setting(
        _L.max_sheet_cells, "Reading documents", "Cells read from a whole workbook."
    )
    max_image_pixels: int = _setting(
        _L.max_image_pixels, "Reading documents", "Largest image decoded (a decompression bomb)."
    )
    convert_timeout_s: float = _setting(
        _L.convert_timeout_s, "Reading documents",
        "LibreOffice's time to convert a legacy .doc/.xls/.ppt/.rtf (seconds).",
    )  # fmt: skip
    structure_profile: Literal["auto", "generic", "financial report"] = _setting(
        "auto", "Reading documents",
        "Extra heading rules for a kind of document: `auto` lets a document opt in on its own "
        "evidence (a filing's cover); `generic` or `financial report` forces the choice.",
    )  # fmt: skip
    ocr: Literal["auto", "force", "off"] = _setting(
        "auto", "Reading documents",
        "OCR of scans with Tesseract: `auto` (pages with no text layer), `force`, `off`.",
    )  # fmt: skip
    ocr_language: str = _setting(
        "auto", "Reading documents",
        "Tesseract's languages: `auto` (the scan's own) or codes such as `deu` or `eng+deu`.",
    )  # fmt: skip
    ocr_max_pages: int = _setting(_L.ocr_max_pages, "Reading documents", "Pages OCR'd per file.")
    ocr_timeout_s: float = _setting(
        _L.ocr_timeout_s, "Reading documents", "OCR time for a whole document (seconds)."
    )
    ocr_workers: int = _setting(
        _L.ocr_workers, "Reading documents", "Tesseract processes at once (0: one per core)."
    )
    pdf_helper: bool = _setting(
        _L.pdf_helper, "Reading documents",
        "Read a long PDF's pages in two processes, the indexing one and a helper (off: the "
        "indexing process alone).",
    )  # fmt: skip
    url_timeout_s: float = _setting(
        _L.url_timeout_s, "Reading documents", "A URL fetch's timeout (seconds)."
    )
    url_max_bytes: int = _setting(_L.url_max_bytes, "Reading documents", "Largest page fetched.")
    allow_private_urls: bool = _setting(
        False, "Reading documents",
        "Let URL indexing fetch private and loopback addresses (off: a team server must not "
        "fetch its own network on a user's behalf).",
    )  # fmt: skip
    sync_max_files: int = _setting(
        _L.sync_max_files, "Reading documents", "Files listed per sync of a folder or bucket."
    )
    sync_max_depth: int = _setting(
        _L.sync_max_depth, "Reading documents", "Folder levels walked below a synced root."
    )

    # --- Sign-in (team hosting)
    auth: Literal["none", "oidc", "proxy"] = _setting(
        "none", "Sign-in",
        "`none`: one local person; `oidc`: Streamlit's sign-in with an OpenID Connect "
        "provider; `proxy`: an authenticating reverse proxy's headers.",
    )  # fmt: skip
    admins: str = _setting(
        "", "Sign-in", "Users or groups (comma-separated) who administer the library."
    )
    proxy_user_header: str = _setting(
        "X-Forwarded-User", "Sign-in", "The proxy's header naming the user."
    )
    proxy_email_header: str = _setting(
        "X-Forwarded-Email", "Sign-in", "The proxy's header with the user's e-mail."
    )
    proxy_groups_header: str = _setting(
        "X-Forwarded-Groups", "Sign-in", "The proxy's header listing the user's groups."
    )
    oidc_groups_claim: str = _setting("groups", "Sign-in", "The ID token's claim of groups.")
    oidc_provider: str = _setting(
        "", "Sign-in", "A named `[auth.NAME]` section of secrets.toml (empty: `[auth]`)."
    )

    # --- MCP server
    mcp_token: SecretStr | None = _setting(
        None, "MCP server", "A bearer token every MCP client must send (never shown)."
    )
    mcp_token_file: str = _setting(
        "", "MCP server", "A JSON file of tokens, each for a user and their groups."
    )

    def limits(self) -> Limits:
        """The reading limits these settings give, for the pipeline."""
        names = set(Limits.__dataclass_fields__) & set(type(self).model_fields)
        return Limits(**{name: getattr(self, name) for name in names})

    def secret(self, name: str) -> str:
        """A secret's value, for the one place that hands it to a client ('' when unset)."""
        value = getattr(self, name)
        return value.get_secret_value() if isinstance(value, SecretStr) else str(value or "")

    def but(self, **changes: Any) -> Settings:
        """These settings with some changed (a person's choices on the Settings page)."""
        return load(**{**self.model_dump(), **changes}, _env_file=None)


def load(**values: Any) -> Settings:
    """``Settings(**values)``, a wrong value said as a ``ConfigError`` naming its variable."""
    try:
        return Settings(**values)
    except ValidationError as exc:
        problem = exc.errors()[0]
        name = str(problem["loc"][0]) if problem.get("loc") else "a setting"
        raise ConfigError(  # worded as the catalogue's key (settings: below the text layer)
            f"{env_name(name)}: {problem['msg']}.",
            key="error.setting_invalid",
            values={"name": env_name(name), "problem": problem["msg"]},
        ) from None


def env_name(field: str) -> str:
    """The variable a field is read from."""
    info = Settings.model_fields.get(field)
    extra = (info.json_schema_extra if info else None) or {}
    custom = extra.get("env") if isinstance(extra, dict) else None
    return str(custom or ENV_PREFIX + field.upper())
