"""The registry as agent tools: list, browse, search, read and ask over the same core.

:class:`RegistryTools` is the one implementation; :func:`make_tools` wraps it as LangChain
tools, and ``python -m treerag_core mcp`` serves it to MCP clients (:mod:`.mcp_server`,
imported only when used: it needs the ``mcp`` SDK and a web server).
"""

from .langchain_tools import make_tools
from .registry_tools import RegistryTools

__all__ = [
    "make_tools",
    "RegistryTools",
]
