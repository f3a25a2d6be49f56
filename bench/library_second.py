"""The second library of ``bench.library``: one software project's manuals (Debian's packaged
documentation, one of them its FAQ, one far longer than the rest) and a team's generated
policies, asked questions that do not name their document.

Why: routing was tuned on FinanceBench's filings; a library nobody tuned on says whether it
generalises. The manuals come from Debian packages (``debian-reference-en``,
``developers-reference``, ``maint-guide``, ``apt-doc``, ``debian-faq``); the ones missing on
this machine are named in the results, and their questions left out. The policies are
written here: six documents of one made-up team that share most of their words (approval,
manager, days, request), so the words alone do not pick the document.

The questions (``bench/questions/library_second.jsonl``, and a fresh set written later,
``library_fresh.jsonl``): each with its gold document, page (PDFs) and section (a title
pattern). They are split into a tuning half and a held-out
half by a hash of their id, fixed before any tuning (``half``); the held-out half is
reported apart and was not looked at while tuning.
"""

from __future__ import annotations

import gzip
import hashlib
import shutil
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
QUESTIONS = BENCH / "questions" / "library_second.jsonl"
# A third set over the same documents, written after the routing of #41 was tuned on the
# first one's tuning half and before it was changed again: questions the ranking's latest
# changes could not have been fitted to (split by the same hash into the same halves).
FRESH = BENCH / "questions" / "library_fresh.jsonl"
SETS = {"second": QUESTIONS, "fresh": FRESH}
# file name in the library → (Debian package, installed path)
MANUALS: dict[str, tuple[str, str]] = {
    "debian-reference.pdf": ("debian-reference-en",
                             "/usr/share/debian-reference/debian-reference.en.pdf"),
    "developers-reference.pdf": ("developers-reference",
                                 "/usr/share/developers-reference/developers-reference.pdf"),
    "maint-guide.pdf": ("maint-guide", "/usr/share/doc/maint-guide/maint-guide.en.pdf"),
    "debian-faq.pdf": ("debian-faq", "/usr/share/doc/debian/FAQ/debian-faq.en.pdf.gz"),
    "apt-users-guide.txt": ("apt-doc", "/usr/share/doc/apt-doc/guide.text.gz"),
}  # fmt: skip
MANUALS_COLLECTION = "debian"
POLICIES_COLLECTION = "policies"


def half(question_id: str) -> str:
    """``tuning`` or ``held-out``, from a hash of the id: fixed before tuning, by nobody."""
    return "held-out" if hashlib.sha256(question_id.encode()).digest()[0] % 2 else "tuning"


POLICIES: dict[str, str] = {
    "kestrel_travel_policy.md": """# Kestrel Analytics travel policy

## Booking
Trips are booked through the travel desk at least 14 days before departure. Economy class is
the rule for flights under 6 hours; premium economy is allowed above 6 hours.

## Hotels
The nightly hotel cap is 180 euros in most cities and 260 euros in London, Paris and Zurich.

## Per diem
Meals abroad are covered by a per diem of 55 euros a day; receipts are not needed.

## Approval
A trip outside the European Union needs the approval of a director, not only the manager.
""",
    "kestrel_expense_policy.md": """# Kestrel Analytics expense policy

## Submitting claims
Claims are submitted in the expense tool within 30 days of the purchase, with a photo of
each receipt.

## Limits
A client dinner may cost at most 90 euros per guest, drinks included.

## Reimbursement
Approved claims are paid with the next monthly salary; claims approved after the 20th are
paid a month later.

## Corporate cards
Corporate cards are issued to staff who spend more than 500 euros a month on behalf of the
company; personal purchases on them are not allowed.
""",
    "kestrel_remote_work_policy.md": """# Kestrel Analytics remote work policy

## Eligibility
Everyone who has passed the probation period may work remotely up to 3 days a week.

## Working abroad
Working from another country is allowed for at most 20 working days a year, after HR
checks the tax rules.

## Equipment at home
The company pays a one-off home office allowance of 400 euros for a chair, a desk or a
screen.

## Core hours
Remote staff are reachable during core hours, from 10:00 to 15:00 Amsterdam time.
""",
    "kestrel_on_call_policy.md": """# Kestrel Analytics on-call policy

## Rotation
Engineers take the on-call pager for one week at a time, handed over on Mondays at 11:00.

## Response times
A severity 1 page is acknowledged within 15 minutes, a severity 2 page within one hour.

## Compensation
Each on-call week is paid a flat 350 euros, and each hour worked at night is given back as
time off.

## Escalation
When the on-call engineer does not acknowledge a page, it goes to the engineering manager
after 30 minutes.
""",
    "kestrel_data_retention_policy.md": """# Kestrel Analytics data retention policy

## Customer data
Customer datasets are deleted 90 days after the contract ends, backups included.

## Logs
Application logs are kept for 13 months; access logs of production systems for 2 years.

## Legal hold
A legal hold from the general counsel stops every deletion for the data it names until it
is lifted.

## Personal data requests
A request from a person to see or erase their data is answered within 30 days.
""",
    "kestrel_hardware_policy.md": """# Kestrel Analytics hardware policy

## Laptops
Engineers choose between a 14-inch and a 16-inch laptop; laptops are replaced every 4 years.

## Lost or stolen devices
A lost or stolen laptop or phone is reported to the IT helpdesk within 24 hours, so that it
can be wiped remotely.

## Returning equipment
Leavers return every device on their last working day; a device not returned is deducted
from the final salary.

## Phones
A company phone is given to people who are on call or travel more than 5 days a month.
""",
}


def prepare(folder: Path) -> tuple[list[Path], list[Path], list[str]]:
    """The manuals found on this machine (copied into ``folder``, uncompressed), the
    policies written there, and the manuals missing (their packages not installed)."""
    folder.mkdir(parents=True, exist_ok=True)
    manuals, missing = [], []
    for name, (_package, installed) in MANUALS.items():
        source, target = Path(installed), folder / name
        if not source.exists():
            missing.append(name)
            continue
        if not target.exists():
            if source.suffix == ".gz":
                with gzip.open(source) as src, target.open("wb") as dst:
                    shutil.copyfileobj(src, dst)
            else:
                shutil.copyfile(source, target)
        manuals.append(target)
    policies = []
    for name, text in POLICIES.items():
        path = folder / name
        path.write_text(text)
        policies.append(path)
    return manuals, policies, missing


def build(registry: str, folder: Path, log: Any = print) -> list[str]:
    """Index the second library into ``registry`` (collections ``debian`` and
    ``policies``); returns the manuals missing on this machine (their questions are left
    out: ``apt-get install`` the packages ``MANUALS`` names)."""
    from treerag_core import index_document, list_documents

    manuals, policies, missing = prepare(folder)
    have = {row["file_name"] for row in list_documents(registry)}
    for paths, collection in ((manuals, MANUALS_COLLECTION), (policies, POLICIES_COLLECTION)):
        for path in paths:
            if path.name not in have:
                index_document(str(path), registry_path=registry, verbose=False,
                               collection=collection)  # fmt: skip
                log(f"indexed {path.name}")
    if missing:
        packages = " ".join(MANUALS[name][0] for name in missing)
        log(f"manuals missing: {', '.join(missing)} (apt-get install {packages})")
    return missing


def questions(missing: list[str], only: str = "", path: Path = QUESTIONS) -> list[dict[str, Any]]:
    """The questions of ``path`` whose documents are on this machine, each with its half
    (``only``: that half alone, e.g. ``tuning`` while tuning)."""
    import json

    rows = [json.loads(line) for line in path.open() if line.strip()]
    rows = [{**r, "half": half(r["id"])} for r in rows if not set(r["files"]) & set(missing)]
    return [r for r in rows if not only or r["half"] == only]


def summary(rows: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Hit rate, right document, documents opened and time: all, and each half apart."""
    import statistics

    out = {}
    for name in ("all", "tuning", "held-out"):
        part = [r for r in rows if name == "all" or r["half"] == name]
        if part:
            out[name] = {
                "questions": len(part),
                "hit_rate": round(sum(r["hit"] for r in part) / len(part), 4),
                "right_document_cited": round(
                    sum(r["right_document"] for r in part) / len(part), 4
                ),
                "opened_median": statistics.median(len(r["opened"]) for r in part),
                "median_s": round(statistics.median(r["seconds"] for r in part), 4),
            }
    return out


def run(registry: str, items: list[dict[str, Any]], collections: tuple[str, ...] | None,
        given: bool = False) -> list[dict[str, Any]]:  # fmt: skip
    """Each question asked of its own document (``given``), or of the library the
    collections make (a reader of those alone; ``None``: the whole registry), offline."""
    import time

    from bench.library_arms import own_score
    from treerag_core import ask, get_document_by_id, list_documents, make_retriever
    from treerag_core.access.principal import Principal
    from treerag_core.answer.library import ask_library

    retriever = make_retriever()
    by_name = {r["file_name"]: r["doc_id"] for r in list_documents(registry)}
    reader = Principal("bench", groups=frozenset(collections)) if collections else None
    rows = []
    for item in items:
        started = time.perf_counter()
        if given:
            document = get_document_by_id(by_name[item["files"][0]], registry)
            result = ask(item["question"], document, retriever, return_raw=False)
        else:
            result = ask_library(item["question"], retriever, registry_path=registry,
                                 principal=reader, return_raw=False)  # fmt: skip
        row = own_score(item, result, time.perf_counter() - started)
        library = (result.get("trace") or {}).get("library") or {}
        row["half"] = item["half"]
        row["opened"] = [d["file_name"] for d in library.get("documents", []) if d.get("kept")]
        rows.append(row)
    return rows
