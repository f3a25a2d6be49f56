"""Legacy Office and RTF files (.doc, .xls, .ppt, .rtf), converted by LibreOffice and then
read by the reader of the modern format (.docx, .xlsx, .pptx).

The binary formats are decades of undocumented corners; LibreOffice reads them better than
any Python library, so it converts them (``soffice --headless --convert-to``) in a
subprocess of its own: a fresh profile folder per conversion (parallel conversions never
share one, and nothing is kept), a time limit after which the whole process group is
killed, and only a temporary copy of the bytes under a fixed name. Without LibreOffice the
error names the Debian packages to install.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
from pathlib import Path

from ...errors import ConverterUnavailableError, DocumentReadError
from ...limits import Limits
from ...structure.pages import ReadOptions, ReadResult
from ...text.messages import raised

PACKAGES = "libreoffice-writer-nogui, libreoffice-calc-nogui and libreoffice-impress-nogui"


def soffice() -> str | None:
    """LibreOffice's command, if it is installed."""
    return shutil.which("soffice") or shutil.which("libreoffice")


def convert(data: bytes, name: str, source_ext: str, target: str, limits: Limits) -> bytes:
    """The file converted to ``target`` (``docx``, ``xlsx``, ``pptx`` or ``pdf``)."""
    command = soffice()
    if command is None:
        raise raised(
            ConverterUnavailableError, "error.needs_libreoffice", name=name, ext=source_ext,
            packages=PACKAGES,
        )  # fmt: skip
    with tempfile.TemporaryDirectory(prefix="treerag-convert-") as folder:
        work = Path(folder)
        source = work / f"source{source_ext}"
        source.write_bytes(data)
        argv = [
            command,
            f"-env:UserInstallation={(work / 'profile').as_uri()}",
            "--headless", "--norestore", "--nolockcheck", "--nodefault", "--nologo",
            "--convert-to", target, "--outdir", str(work / "out"), str(source),
        ]  # fmt: skip
        _run(argv, work, name, limits.convert_timeout_s)
        converted = work / "out" / f"source.{target.split(':', 1)[0]}"
        if not converted.is_file() or not converted.stat().st_size:
            raise raised(DocumentReadError, "error.convert_failed", name=name, ext=source_ext)
        return converted.read_bytes()


def _run(argv: list[str], work: Path, name: str, timeout_s: float) -> None:
    """LibreOffice in its own process group, killed whole when it overruns."""
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(work), "LANG": "C.UTF-8"}
    with subprocess.Popen(
        argv, cwd=work, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        stdin=subprocess.DEVNULL, start_new_session=True,
    ) as process:  # fmt: skip
        try:
            process.wait(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
            raise raised(
                DocumentReadError, "error.convert_timeout", name=name, seconds=f"{timeout_s:.0f}"
            ) from None


class Converted:
    """A reader of a legacy format: convert to ``target``, then read with ``read``."""

    def __init__(self, source_ext: str, target: str, read: object) -> None:
        self.source_ext, self.target, self.read = source_ext, target, read

    def __call__(
        self, data: bytes, limits: Limits, name: str = "the document", options: object = None
    ) -> ReadResult:
        converted = convert(data, name, self.source_ext, self.target, limits)
        result = self.read(converted, limits, name, options or ReadOptions())  # type: ignore[operator]
        result.warnings.insert(0, f"Converted from {self.source_ext} by LibreOffice.")
        return result
