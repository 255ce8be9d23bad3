"""The structured record of one candidate, each value linked to where it was read in the PDF,
and the list of the person's documents (each opens in the preview).

:func:`record_html` renders ``services.people.get_candidate(id)`` as HTML in which every value
that has provenance (page + bbox) is a ``prov:<n>`` link and every value read with low
confidence is followed by a "? check: <reason>" mark; :class:`CandidateDetail` shows it and
emits ``provenance_clicked(page, bbox)`` for the PDF preview.
"""

from __future__ import annotations

import html
import re
from urllib.parse import quote

from PySide6.QtCore import QUrl, Signal
from PySide6.QtWidgets import QTextBrowser

from cvrag_desktop.domain import confidence_map

CHECK_COLOUR = "#b45309"  # amber: readable on the light and the dark theme


def _esc(value: object) -> str:
    return html.escape(str(value), quote=True)


class _Links:
    """Turns (field, value) into a provenance link when the record knows where it came from."""

    def __init__(self, provenance: list[dict]) -> None:
        self.provenance = provenance
        self._index: dict[tuple[str, str], int] = {}
        for i, p in enumerate(provenance):
            if p.get("page") is not None and p.get("bbox"):
                self._index.setdefault((p["field"], p["value"]), i)

    def __call__(self, field: str, value: object) -> str:
        if value in (None, ""):
            return ""
        i = self._index.get((field, str(value)))
        if i is None:
            return _esc(value)
        page = self.provenance[i]["page"] + 1
        return f'<a href="prov:{i}" title="page {page}">{_esc(value)}</a>'


class _Checks:
    """The "? check: <reason>" mark after a value read with low confidence (``rec["confidence"]``)."""

    def __init__(self, rec: dict) -> None:
        conf = rec.get("confidence")
        self.conf = conf if conf is not None else confidence_map(rec.get("provenance"))

    def __call__(self, field: str, shown: str) -> str:
        c = self.conf.get(field) or {}
        if not shown or not c.get("low"):
            return ""
        why = _esc(c.get("reason") or "low confidence")
        return (f' <span class="check" style="color:{CHECK_COLOUR}; font-size:small; font-weight:normal; '
                f'font-style:normal" title="Check: {why}">? check: {why}</span>')


def _dates(start: str | None, end: str | None, current: bool = False) -> str:
    if not (start or end or current):
        return ""
    return f" <span style='opacity:0.7'>({_esc(start or '?')} – {'present' if current else _esc(end or '?')})</span>"


def contact_link(scheme: str, value: str) -> str:
    """A small ✉ (``mailto:``) or ☎ (``tel:``) link after an e-mail or phone, opening the mail client or dialler."""
    if scheme == "tel":
        target = re.sub(r"[^\d+]", "", value)
        if len(target.lstrip("+")) < 5:
            return ""
        symbol, tip = "☎", "Call (opens the dialler)"
    else:
        target = quote(value.strip(), safe="@.+-_")
        symbol, tip = "✉", "Write an e-mail (opens the mail client)"
    return f' <a href="{scheme}:{_esc(target)}" title="{tip}">{symbol}</a>'


def documents_html(documents: list[dict], shown: str | None = None) -> str:
    """The person's documents, newest first: date, file name, each a ``doc:<id>`` link to its PDF."""
    out = [f"<h3>Documents ({len(documents)})</h3><ul>"]
    for d in documents:
        when = d.get("cv_date") or d.get("newest_date") or "undated"
        tags = ["newest, shown above"] if d.get("primary") else []
        if d.get("id") == shown and not d.get("primary"):
            tags.append("in the preview")
        extra = f" <span style='opacity:0.7'>({', '.join(tags)})</span>" if tags else ""
        out.append(f"<li>{_esc(when)} · <a href=\"doc:{_esc(d['id'])}\">{_esc(d.get('file_name') or d['id'])}</a>"
                   f"{extra}</li>")
    out.append("</ul>")
    return "".join(out)


def record_html(rec: dict, memberships: list[str] | None = None, documents: list[dict] | None = None) -> str:
    """HTML for a candidate record (see ``App.get_candidate``) with provenance links.

    With ``documents`` (``App.person_documents``) of a person who has several CVs,
    the heading tells namesakes apart and the documents are listed, each openable.
    """
    link = _Links(rec.get("provenance") or [])
    check = _Checks(rec)
    name = link('name', rec.get('name'))
    out = [f"<h2>{name or '(no name)'}{check('name', name)}</h2>"]
    if documents and len(documents) > 1:
        out.append(f"<p><b>{len(documents)} documents</b> of one person; the newest one's facts are shown.</p>")
    if rec.get("headline"):
        out.append(f"<p><i>{link('headline', rec['headline'])}</i>{check('headline', rec['headline'])}</p>")
    facts = []
    if rec.get("current_title") or rec.get("current_company"):
        title = _esc(rec.get('current_title') or '')
        facts.append(f"<b>Now:</b> {title}{check('current_title', title)}"
                     f"{' at ' + _esc(rec['current_company']) if rec.get('current_company') else ''}"
                     f"{check('current_company', rec.get('current_company') or '')}")
    source = " from the file" if rec.get("cv_date_source") == "file" else ""
    if rec.get("years_of_experience") is not None:
        until = f" (to the CV's own date{source}, {_esc(rec['cv_date'])})" if rec.get("cv_date") else ""
        facts.append(f"<b>Experience:</b> {rec['years_of_experience']:g} years{until}")
    elif rec.get("cv_date"):
        facts.append(f"<b>CV dated{source}:</b> {_esc(rec['cv_date'])}")
    contact = ([link("emails", e) + contact_link("mailto", e) for e in rec.get("emails") or []]
               + [link("phones", p) + contact_link("tel", p) for p in rec.get("phones") or []])
    if rec.get("location"):
        contact.append(link("location", rec["location"]))
    if contact:
        facts.append("<b>Contact:</b> " + " · ".join(contact))
    if memberships:
        facts.append("<b>Shortlists:</b> " + ", ".join(_esc(m) for m in memberships))
    out.append("<p>" + "<br>".join(facts) + "</p>")
    if rec.get("experiences"):
        out.append("<h3>Experience</h3><ul>")
        for n, e in enumerate(rec["experiences"]):
            title = link(f"experiences[{n}].title", e.get("title"))
            title = (title + check(f"experiences[{n}].title", title)) if title else "(role)"
            company = link(f"experiences[{n}].company", e.get("company"))
            company += check(f"experiences[{n}].company", company)
            out.append(f"<li>{title}{' — ' + company if company else ''}"
                       f"{_dates(e.get('start'), e.get('end'), e.get('is_current', False))}</li>")
        out.append("</ul>")
    if rec.get("education"):
        out.append("<h3>Education</h3><ul>")
        for n, e in enumerate(rec["education"]):
            degree = link(f"education[{n}].degree", e.get("degree"))
            field = f" in {_esc(e['field'])}" if e.get("field") else ""
            field += check(f"education[{n}].degree", degree)
            degree = degree or "(degree)"
            inst = link(f"education[{n}].institution", e.get("institution"))
            inst += check(f"education[{n}].institution", inst)
            out.append(f"<li>{degree}{field}{' — ' + inst if inst else ''}{_dates(e.get('start'), e.get('end'))}</li>")
        out.append("</ul>")
    for key, title in (("skills", "Skills"), ("languages", "Languages"), ("certifications", "Certifications")):
        if rec.get(key):
            out.append(f"<h3>{title}</h3><p>" + ", ".join(link(key, v) for v in rec[key]) + "</p>")
    if documents and len(documents) > 1:
        out.append(documents_html(documents, rec.get("shown_document")))
    if rec.get("source_path"):
        out.append(f"<p style='opacity:0.7'>Imported from {_esc(rec['source_path'])}</p>")
    note = "Linked values open the PDF at the place they were read."
    if any(c.get("low") for c in check.conf.values()):
        note += " A value marked “? check” was read with low confidence: compare it with the PDF."
    out.append(f"<p style='opacity:0.7'>{note}</p>")
    return "".join(out)


class CandidateDetail(QTextBrowser):
    """Read-only record view; clicking a linked value emits its page and bbox."""

    provenance_clicked = Signal(int, object)  # page (0-based), bbox tuple
    document_clicked = Signal(str)  # candidate id of one of the person's documents
    link_clicked = Signal(QUrl)  # mailto: / tel: (the pane opens them with the desktop's handler)

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setOpenLinks(False)
        self.record: dict | None = None
        self.documents: list[dict] = []
        self._memberships: list[str] | None = None
        self.anchorClicked.connect(self._clicked)
        self.show_placeholder()

    def show_placeholder(self, text: str = "Select a candidate to see the record.") -> None:
        """Empty state."""
        self.record = None
        self.documents = []
        self.setHtml(f"<p style='opacity:0.7'>{_esc(text)}</p>")

    def cover(self, text: str) -> None:
        """Hide the record shown behind a message, keeping which record it is (it is shown again next)."""
        self.setHtml(f"<p style='opacity:0.7'>{_esc(text)}</p>")

    def show_record(self, rec: dict, memberships: list[str] | None = None,
                    documents: list[dict] | None = None) -> None:
        """Render a record (the person's newest document) and the person's documents."""
        self.record = rec
        self.documents = documents or []
        self._memberships = memberships
        self.setHtml(record_html(rec, memberships, documents))

    def mark_shown(self, candidate_id: str) -> None:
        """Note which document the preview shows (re-renders the document list)."""
        if self.record is not None:
            self.record["shown_document"] = candidate_id
            self.setHtml(record_html(self.record, self._memberships, self.documents))

    def open_document(self, candidate_id: str) -> None:
        """Ask for one of the person's documents in the preview."""
        self.document_clicked.emit(candidate_id)

    def open_provenance(self, index: int) -> None:
        """Emit the location of provenance entry ``index``."""
        if not self.record:
            return
        prov = (self.record.get("provenance") or [])[index]
        self.provenance_clicked.emit(int(prov["page"]), tuple(prov["bbox"]))

    def _clicked(self, url: QUrl) -> None:
        text = url.toString()
        if text.startswith("prov:"):
            self.open_provenance(int(text[5:]))
        elif text.startswith("doc:"):
            self.open_document(text[4:])
        elif url.scheme() in ("mailto", "tel"):
            self.link_clicked.emit(url)
