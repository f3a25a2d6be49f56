"""``python -m bench NAME [ARGS]``: run one benchmark of ``bench/catalog.py``.

``python -m bench`` alone (or with options only, ``python -m bench --only pg``) runs the
speed benchmark, as it always has; ``python -m bench list`` lists every benchmark with what
it measures; ``python -m bench readme`` writes ``bench/README.md`` from the catalog and the
latest results. ARGS go to the benchmark (``python -m bench financebench --help``).
"""

from __future__ import annotations

import importlib
import sys

from .catalog import BY_NAME, CATALOG, readme
from .record import RESULTS


def _list() -> int:
    width = max(len(b.name) for b in CATALOG)
    for b in CATALOG:
        print(f"{b.name:<{width}}  {b.measures}")
    return 0


def _readme() -> int:
    path = RESULTS.parent / "README.md"
    path.write_text(readme(), encoding="utf-8")
    print(f"wrote {path}")
    return 0


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] in ("-h", "--help"):
        print(__doc__)
        return 0
    name = args.pop(0) if args and not args[0].startswith("-") else "speed"
    if name == "list":
        return _list()
    if name == "readme":
        return _readme()
    if name not in BY_NAME:
        print(f"no benchmark named {name!r}; python -m bench list names them", file=sys.stderr)
        return 2
    module = importlib.import_module(BY_NAME[name].module)
    if {"-h", "--help"} & set(args) and not hasattr(module, "argparse"):
        print(module.__doc__)  # a benchmark without options would run instead
        return 0
    sys.argv = [f"python -m bench {name}", *args]  # argparse's usage and a main() that reads it
    return int(module.main() or 0)


if __name__ == "__main__":
    sys.exit(main())
