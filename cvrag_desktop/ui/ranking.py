"""From search hits (chunks) to a ranking of people with their best evidence (Qt-free).

``services.search`` returns chunks, best first; the browser shows people. A person's
relevance is their best chunk's score (more matching passages break ties); the bar in
the table is that score relative to the best person's, and the snippet is a window of
the best chunk around the first query term, with the terms marked up for display.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

SNIPPET_CHARS = 180
MIN_TERM = 2


@dataclass
class PersonHit:
    """One person's place in a search: score, relative score (0–1), best passage."""

    person_id: str
    score: float
    rank: int = 0
    relative: float = 0.0
    hits: int = 1
    document_id: str = ""  # the document of the best passage
    page: int | None = None
    section: str = ""
    text: str = ""
    terms: list[str] = field(default_factory=list)

    @property
    def snippet_html(self) -> str:
        """The best passage around the first term, HTML-escaped, terms in bold."""
        return highlight(snippet(self.text, self.terms), self.terms)

    @property
    def snippet_text(self) -> str:
        """The best passage around the first term, plain text (tooltips, exports)."""
        return snippet(self.text, self.terms)

    def term_found(self) -> bool:
        """True when a query term occurs literally in the best passage (not a meaning-only match)."""
        low = self.text.casefold()
        return any(t in low for t in self.terms)


def query_terms(query: str) -> list[str]:
    """The words of a query worth highlighting (casefolded, quotes and operators dropped, unique)."""
    words = re.findall(r"[\w+#.]+", query.casefold())
    out = [w.strip(".") for w in words]
    return list(dict.fromkeys(w for w in out if len(w) >= MIN_TERM))


def _field(hit: object, name: str):
    return hit.get(name) if isinstance(hit, dict) else getattr(hit, name, None)


def rank_people(hits: Iterable[object], person_of: Callable[[str], str | None], query: str) -> list[PersonHit]:
    """Group chunk hits by person, best first; unknown documents (forgotten meanwhile) are skipped."""
    terms = query_terms(query)
    people: dict[str, PersonHit] = {}
    for h in hits:
        doc = _field(h, "candidate_id")
        person = person_of(doc) if doc else None
        if not person:
            continue
        score = float(_field(h, "score") or 0.0)
        found = people.get(person)
        if found is None:
            people[person] = PersonHit(person, score, document_id=doc, page=_field(h, "page"),
                                       section=_field(h, "section") or "", text=_field(h, "text") or "",
                                       terms=terms)
        else:
            found.hits += 1
            if score > found.score:
                found.score, found.document_id, found.page = score, doc, _field(h, "page")
                found.section, found.text = _field(h, "section") or "", _field(h, "text") or ""
    ranked = sorted(people.values(), key=lambda p: (-p.score, -p.hits))
    top = ranked[0].score if ranked else 0.0
    for i, p in enumerate(ranked):
        p.rank = i + 1
        p.relative = max(0.0, min(1.0, p.score / top)) if top > 0 else 0.0
    return ranked


def snippet(text: str, terms: list[str], width: int = SNIPPET_CHARS) -> str:
    """About ``width`` characters of ``text`` (one line) around the first occurrence of a term."""
    flat = " ".join((text or "").split())
    if len(flat) <= width:
        return flat
    low = flat.casefold()
    positions = [p for p in (low.find(t) for t in terms) if p >= 0]
    at = min(positions) if positions else 0
    start = max(0, min(at - width // 3, len(flat) - width))
    if start:  # begin on a word
        space = flat.find(" ", start)
        start = space + 1 if 0 <= space < at else start
    end = min(len(flat), start + width)
    if end < len(flat):
        space = flat.rfind(" ", start, end)
        end = space if space > start + width // 2 else end
    return ("… " if start else "") + flat[start:end] + (" …" if end < len(flat) else "")


def highlight(text: str, terms: list[str]) -> str:
    """``text`` HTML-escaped with every occurrence of a term wrapped in ``<b>``."""
    if not terms:
        return html.escape(text)
    pattern = re.compile("|".join(re.escape(t) for t in sorted(terms, key=len, reverse=True)), re.IGNORECASE)
    out, pos = [], 0
    for m in pattern.finditer(text):
        out.append(html.escape(text[pos:m.start()]))
        out.append(f"<b>{html.escape(m.group(0))}</b>")
        pos = m.end()
    out.append(html.escape(text[pos:]))
    return "".join(out)
