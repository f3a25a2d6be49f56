"""The message catalogue's parts, one module a page or part of the app, each holding its
English (``EN``) and German (``DE``) wording side by side so a translator reads both at
once; :mod:`treerag_core.text.messages` joins them into one catalogue a language."""

from __future__ import annotations

from . import (
    access,
    chat,
    computed_model,
    core,
    errors,
    errors_asking,
    errors_store,
    errors_tools,
    evaluate,
    registry,
    settings,
    sources,
    trace,
    tree,
    upload,
    working,
)

PARTS = (
    registry,
    evaluate,
    tree,
    chat,
    upload,
    settings,
    access,
    sources,
    core,
    computed_model,
    errors,
    errors_store,
    errors_tools,
    errors_asking,
    working,
    trace,
)

__all__ = ["PARTS"]
