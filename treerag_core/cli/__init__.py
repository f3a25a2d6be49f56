"""The command line (``python -m treerag_core``): index, list, show, ask, eval, sources and
sync, the MCP server and the indexing worker, on the same core as the app."""
