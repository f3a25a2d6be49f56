"""The page boundary: every failure becomes a message, never a traceback on screen."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager

import streamlit as st

from treerag_core import TreeragError

from .i18n import t

log = logging.getLogger("treerag.app")


def message_for(exc: BaseException) -> str:
    """What to tell the person: the core's own message (in the person's language when the
    error names its catalogue key), or a short generic one."""
    if isinstance(exc, TreeragError):
        if exc.key:
            return t(exc.key, **exc.values)
        return str(exc) or type(exc).__name__
    return t("error.unexpected", kind=type(exc).__name__)


@contextmanager
def shown_errors() -> Iterator[None]:
    """Run a page (or an action) and show any error as ``st.error``.

    Streamlit's own rerun / page-switch signals derive from BaseException and pass through.
    """
    try:
        yield
    except TreeragError as exc:
        st.error(message_for(exc))
    except Exception as exc:  # the page boundary: log it, show a message
        log.exception("unexpected error in a page")
        st.error(message_for(exc))
