"""The offline navigator: the BM25 ranking of :mod:`.ranking` chooses, with no model; and
the check a search model's choice gets against it (``search_mode="checked"``)."""

from __future__ import annotations

from typing import Any

from ..text.language import Languages
from ..text.messages import Joined, Phrase
from ..types import FlatNode
from .base import NavigationResult, Plan, Search
from .crosslanguage import cannot_match
from .line_items import RowLabels, line_item_sections
from .ranking import RankingMemory, question_terms, ranking_statistics, scored_nodes
from .statements import statement_ids, statement_sections
from .titles import titled_sections

RELATIVE_CUTOFF = 0.4  # offline picks must score at least this share of the best one

CHECK_ADDED = 4


class OfflineNavigator:
    """The offline ranking chooses as many sections as the offline answer reads; a question
    in none of the document's languages is told so rather than answered from noise."""

    def plan(self, search: Search) -> Plan:
        note = (
            ""
            if search.carried
            else cannot_match(search.searched, search.flat, search.language, search.memory)
        )
        if note:
            step = {"step": 1, "mode": "offline", "chosen": [], "reasoning": note}
            return NavigationResult([], "offline", [step], note=note)
        return offline_result(search.query, search.searched, search.offline_instead())
        yield  # a plan that never asks the model


def offline_pick(
    query: str,
    flat: dict[str, FlatNode],
    k: int,
    candidates: list[str] | None = None,
    carried: list[str] | None = None,
    memory: RankingMemory | None = None,
    language: Languages | None = None,
    labels: RowLabels | None = None,
) -> tuple[list[str], str]:
    """The ``k`` best-ranked sections; sections whose tables print a line item the question
    names (``labels``: the document's row labels, see :mod:`.line_items`), the statement it
    names (:mod:`.statements`) and ``carried`` ones (the previous answer's, for a follow-up
    on the same topic) are read too, taking the places of the last-ranked."""
    pool = candidates if candidates is not None else list(flat)
    carried = [nid for nid in carried or [] if nid in flat and nid in set(pool)][:k]
    scored, exact = scored_nodes(query, flat, candidates, memory, language)
    # Keep only sections scoring near the best: a common word must not drag in noise. Near
    # is judged on the question's own words: another form of one ("ended" for "end")
    # reorders the sections but adds none, which would thin every excerpt of the answer.
    floor = RELATIVE_CUTOFF * max(exact.values(), default=0.0)
    ranked = [nid for nid, _ in scored[:k] if exact.get(nid, 0.0) >= floor]
    if not ranked and not carried:
        return pool[:k], Phrase("nav.no_term")
    how = [Phrase("nav.offline_ranking")]
    named: list[str] = []
    titled: list[str] = []
    if scored:
        bm25, languages = ranking_statistics(flat, candidates, memory, language)
        asked = set(question_terms(query, languages))
        places = {nid: i for i, (nid, _) in enumerate(scored)}
        titled = titled_sections(asked, flat, pool, bm25, languages, places)
        titled = [nid for nid in titled if nid not in ranked]
        if titled:
            printed = ", ".join(f"'{flat[nid].get('title')}'" for nid in titled)
            how.append(Phrase("nav.titles", printed=printed))
    if labels and scored:
        order = {nid: i for i, nid in enumerate(pool)}
        stated = statement_ids(flat, pool)
        items = line_item_sections(asked, labels, bm25, order, statements=stated)
        named = [nid for nid, _ in items if nid not in carried]
        if added := [nid for nid in named if nid not in ranked]:
            printed = ", ".join(dict.fromkeys(f"'{label}'" for _, label in items))
            how.append(Phrase("nav.line_items", count=len(added), printed=printed))
    if carried:
        how.append(Phrase("nav.carried", count=len(carried)))
    statements = statement_sections(query, flat, pool, labels or {})
    if statements:
        printed = ", ".join(f"'{flat[nid].get('title')}'" for nid, _ in statements)
        how.append(Phrase("nav.statements", printed=printed))
    wanted = titled + named + carried + [nid for nid, _ in statements]
    return with_reserved(ranked, list(dict.fromkeys(wanted)), k), Joined(how)


def with_reserved(ranked: list[str], reserved: list[str], k: int) -> list[str]:
    """``k`` sections: every ``reserved`` one, and the best-ranked others in the room left,
    in the ranking's order, the reserved ones the ranking left out last. A reserved section
    the ranking has among its last places is kept there, not cut with them (a statement
    ranked eighth of eight was dropped to make room for the line items)."""
    reserved = reserved[-k:]  # more than k: the last k
    room = k - len(reserved)
    head = [nid for nid in ranked if nid not in reserved][:room]
    kept = [nid for nid in ranked if nid in head or nid in reserved]
    return kept + [nid for nid in reserved if nid not in kept]


def descendants(flat: dict[str, FlatNode], roots: list[str]) -> list[str]:
    out: list[str] = []
    todo = list(reversed(roots))
    while todo:
        nid = todo.pop()
        if nid in flat and nid not in out:
            out.append(nid)
            todo.extend(reversed(flat[nid].get("children") or []))
    return out


def offline_result(query: str, searched: str, pick: tuple[list[str], str]) -> NavigationResult:
    """No model: the offline ranking chooses, and the trace says what it searched for."""
    ids, how = pick
    trace: list[dict[str, Any]] = [{"step": 1, "mode": "offline", "chosen": ids, "reasoning": how}]
    if searched != query:
        trace[0]["searched_as"] = searched
    return NavigationResult(ids, "offline", trace)


def _family(flat: dict[str, FlatNode], nid: str) -> list[str]:
    """The section, its parent and its children: what counts as near it."""
    node = flat.get(nid) or {}
    return [nid, str(node.get("parent_id") or ""), *(node.get("children") or [])]


def checked_choice(result: NavigationResult, search: Search) -> NavigationResult:
    """The model's choice, with the offline ranking's best between its sections when none
    of them is near what the question's words find (see SEARCH_MODES)."""
    if result.fallback or not result.node_ids:
        return result
    if search.language.foreign(search.query):
        result.trace.append({
            "step": len(result.trace) + 1, "mode": "offline check",
            "note": Phrase("nav.check_foreign"),
        })  # fmt: skip
        return result
    picks, how = search.offline_instead()
    if not picks or not how.startswith("offline"):
        return result  # no word of the question matched: nothing to check against
    near = {nid for pick in picks for nid in _family(search.flat, pick)}
    chosen = result.node_ids
    if near.intersection(chosen):
        return result
    added = [nid for nid in picks if nid not in chosen][:CHECK_ADDED]
    mixed = [nid for pair in zip(chosen, added, strict=False) for nid in pair]
    result.node_ids = mixed + chosen[len(added) :] + added[len(chosen) :]
    result.trace.append({
        "step": len(result.trace) + 1, "mode": "offline check", "read": added,
        "note": Phrase("nav.check_added", chosen=len(chosen), picks=len(picks), added=len(added)),
    })  # fmt: skip
    return result
