"""Run a coroutine to completion from a sync test, whatever else the session runs."""

import asyncio
from concurrent.futures import ThreadPoolExecutor


def run_coroutine(coro):
    """``asyncio.run`` in a fresh thread: Playwright's sync API (the browser tests) leaves an
    event loop running in the main thread, where ``asyncio.run`` refuses to start."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()
