"""What the tests and the benchmarks share: fake model servers, document builders, a private
PostgreSQL server, and what the full tier needs from outside the repository.

One package both import as ``testkit.X`` (the repository's root is on the path for pytest,
through ``pythonpath`` in pyproject.toml, and for ``python -m bench``), so neither edits the
import path and no helper lives twice. Nothing here is imported by ``treerag_core``.

- ``fake_llm_servers``: the scriptable OpenAI and Ollama servers the tests drive the real
  clients against (``FakeLLMServer``, replies, failures, the ``openai_server`` fixture);
- ``fake_llm``: the benchmarks' OpenAI server with a fixed delay per reply (``FakeLLM``);
- ``builders``, ``office_files``, ``mail_builders``, ``msg_builder``, ``ocr_builders``,
  ``llm_test_docs``: documents made on the spot (PDF, DOCX, decks, sheets, mail, scans,
  parsed trees);
- ``pg_server``: a PostgreSQL server of its own in a temp folder (Debian's binaries);
- ``agent_registry``, ``sources_helpers``, ``async_helpers``: registries and small helpers;
- ``needs``: where the shared benchmark data, Debian's documents and the system programs
  are, and the message naming what to install when one is missing.
"""
