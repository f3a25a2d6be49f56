"""What the full tier and the benchmarks need from outside the repository, and how to get it.

Two kinds: the project's shared data (``shared/`` beside the checkout: the FinanceBench
filings and question sets) and what Debian packages bring (programs such as Tesseract or
PostgreSQL, documents such as the Debian FAQ in its translations). ``tests/run.sh``
installs the packages; the shared folder comes with the project's workplace.

Each is looked up here, once, and a missing one is named with the command that brings it:
the full tier fails with that message (conftest's ``shared_data`` fixture and ``system``
marker), it never skips; the quick tier does not select these tests at all.
"""

from __future__ import annotations

import glob
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
FINANCEBENCH = SHARED / "bench" / "financebench"
FILINGS = FINANCEBENCH / "pdfs"
DEBIAN_FAQ = Path("/usr/share/doc/debian/FAQ")
OFFICE = "libreoffice-writer-nogui libreoffice-calc-nogui libreoffice-impress-nogui"


class MissingNeed(AssertionError):
    """Something a test or benchmark needs is not on this machine; the message says how to
    get it. An ``AssertionError`` so that outside pytest it reads as a failed precondition."""


@dataclass(frozen=True)
class Program:
    """A system program (or its data) a test runs for real, and the packages that bring it."""

    found: Callable[[], bool]
    packages: str

    def missing(self, name: str) -> str:
        return (
            f"{name} is missing: sudo apt-get install {self.packages} "
            "(bash tests/run.sh installs it; bash tests/run.sh --quick needs none of it)"
        )


def _any(*patterns: str) -> Callable[[], bool]:
    return lambda: any(glob.glob(p) for p in patterns)


def _on_path(*names: str) -> Callable[[], bool]:
    return lambda: any(shutil.which(n) for n in names)


# The names a test's ``system`` marker may give (conftest checks each before the test).
PROGRAMS: dict[str, Program] = {
    "chromium": Program(_any("/usr/bin/chromium"), "chromium"),
    "tesseract": Program(_on_path("tesseract"), "tesseract-ocr"),
    "tesseract-deu": Program(
        _any("/usr/share/tesseract-ocr/*/tessdata/deu.traineddata"), "tesseract-ocr-deu"
    ),
    "dejavu": Program(
        _any("/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"), "fonts-dejavu-core"
    ),
    "postgresql": Program(
        lambda: bool(glob.glob("/usr/lib/postgresql/*/bin/initdb") or shutil.which("initdb")),
        "postgresql",
    ),
    "nginx": Program(lambda: bool(shutil.which("nginx") or glob.glob("/usr/sbin/nginx")), "nginx"),
    "libreoffice": Program(_on_path("soffice"), OFFICE),
}


def missing_program(name: str) -> str | None:
    """The message naming what to install when ``name`` (a key of PROGRAMS) is missing."""
    program = PROGRAMS[name]
    return None if program.found() else program.missing(name)


def _need(path: Path, how: str) -> Path:
    if not path.exists():
        raise MissingNeed(f"{path} is missing: {how}")
    return path


def financebench(relative: str) -> Path:
    """A file of the shared FinanceBench set (``pdfs/X.pdf``, a question file, …)."""
    return _need(
        FINANCEBENCH / relative,
        f"the project's shared data goes in {SHARED} (a folder named shared beside the "
        "checkout, with bench/financebench/ in it)",
    )


def filing(name: str) -> Path:
    """One of the shared SEC filings, ``AMAZON_2019_10K.pdf``."""
    return financebench(f"pdfs/{name}")


def debian_faq(name: str) -> Path:
    """One edition of the Debian FAQ as Debian installs it, ``debian-faq.de.txt.gz``."""
    parts = name.split(".")
    package = "debian-faq" if parts[1] == "en" else f"debian-faq-{parts[1]}"
    return _need(DEBIAN_FAQ / name, f"sudo apt-get install {package} (bash tests/run.sh does)")
