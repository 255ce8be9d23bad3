"""Deterministic CV normalization: extracted lines → ``NormalizedCV`` with provenance.

No language model is involved: sections, contact facts, roles, degrees, skills and
languages are read by the rules in this package, and each value records the page,
bbox and character span of the line it came from so the UI can highlight it.
"""

from __future__ import annotations

import datetime as dt
import itertools
import re
from collections import defaultdict
from typing import TYPE_CHECKING

from cvrag_desktop.domain import NormalizedCV, Provenance
from cvrag_desktop.ingestion.fields.confidence import score_confidence
from cvrag_desktop.ingestion.fields.education import parse_education
from cvrag_desktop.ingestion.fields.europass import read_europass
from cvrag_desktop.ingestion.fields.grouped_history import read_grouped_education, read_grouped_history
from cvrag_desktop.ingestion.fields.history import parse_experiences
from cvrag_desktop.ingestion.fields.identity import contact, names
from cvrag_desktop.ingestion.fields.identity.headline import find_headline
from cvrag_desktop.ingestion.fields.skills import extract_certifications, extract_languages, extract_skills
from cvrag_desktop.ingestion.layout.section_kinds import SectionKindModel, bundled_model
from cvrag_desktop.ingestion.layout.sections import SectionBlock, find_sections, lexicon_section
from cvrag_desktop.ingestion.read.extracted import ExtractedDoc
from cvrag_desktop.text.cvdate import file_date, find_cv_date, find_date_stamp
from cvrag_desktop.text.keys import normalize_key
from cvrag_desktop.text.vocab.lexicon import load_lexicon

if TYPE_CHECKING:
    from cvrag_desktop.ingestion.layout.line_roles import LineRoleModel


class _Prov:
    """Collects provenance records for values read from known lines."""

    def __init__(self, doc: ExtractedDoc) -> None:
        self.doc = doc
        self.items: list[Provenance] = []

    def add(self, field: str, value: str | None, line: int | None) -> None:
        if not value or line is None or line >= len(self.doc.lines):
            return
        ln = self.doc.lines[line]
        start, end = self.doc.line_span(line)
        pos = ln.text.find(value)
        if pos >= 0:
            start, end = start + pos, start + pos + len(value)
        self.items.append(
            Provenance(field=field, value=value, page=ln.page, bbox=tuple(round(v, 1) for v in ln.bbox),
                       char_start=start, char_end=end)
        )


# Headings of paid work among several experience sections ("Work Experience" beside "Research Experience"):
# their roles come first, so that the current role is the job, not a fellowship or a side collaboration.
_EMPLOYMENT_HEADING = re.compile(r"\b(?:work|employment|professional|career|industry|berufserfahrung|beruf|"
                                 r"professionnelle?s?|laboral|profesional|profissional|lavorativa|"
                                 r"工作|職歴|职业)", re.IGNORECASE)


def _by_section(blocks: list[SectionBlock]) -> dict[str, list[int]]:
    out: dict[str, list[int]] = defaultdict(list)
    work = [b for b in blocks if b.section == "experience" and _EMPLOYMENT_HEADING.search(b.title or "")]
    ordered = work + [b for b in blocks if b not in work] if 0 < len(work) < sum(
        b.section == "experience" for b in blocks) else blocks
    for b in ordered:
        out[b.section].extend(b.lines)
    return out


def _side_by_side(blocks: list[SectionBlock]) -> dict[str, list[int]]:
    """Sections printed side by side: an empty block right before another shares its lines.

    Table layouts put "Languages | Certifications" in one band; both headings come first and
    the rows below carry one cell of each.
    """
    out: dict[str, list[int]] = {}
    for a, b in itertools.pairwise(blocks):
        if a.heading is not None and not a.lines and b.heading is not None and b.lines:
            out[a.section] = b.lines
    return out


def _heading_cells(blocks: list[SectionBlock], lines: list) -> dict[str, list[int]]:
    """Headings side by side in one row ("Languages<tab>Certifications" of a table): every section
    the row names shares the block's lines, whose rows carry one cell of each."""
    out: dict[str, list[int]] = {}
    for b in blocks:
        if b.heading is None or not b.lines or "\t" not in lines[b.heading].text:
            continue
        named = {lexicon_section(c.strip()) for c in lines[b.heading].text.split("\t") if c.strip()}
        if len(named - {None}) >= 2 and None not in named:
            for section in named - {b.section}:
                out.setdefault(section, b.lines)
            out.setdefault(b.section, b.lines)
    return out


_REFEREES = re.compile(r"\b(?:referees?|references?|referenzen|références|referencias|referências|referenze)\b", re.I)
_RUNNING = re.compile(r"curriculum\s+vitae|lebenslauf|\br[ée]sum[ée]\b|\bpage\s+\d|^\d+\s*/\s*\d+$", re.IGNORECASE)


def _not_a_skill(skill: str, name: str | None, headline: str | None) -> bool:
    """The person's name or headline, a running footer ("CURRICULUM VITAE", "Page 2") or a day and month
    ("JUNE 2") that a skills list picked up from the page's last line."""
    key = normalize_key(skill)
    if key in {normalize_key(name or ""), normalize_key(headline or "")}:
        return True
    if len(skill.strip()) == 1 and not skill.strip().isascii():
        return True  # a lone ideograph ("日" of a date) cut from a list; "C" and "R" are skills, "日" is not
    if _RUNNING.search(skill):
        return True
    words = key.split()
    return len(words) == 2 and any(w.rstrip(".") in load_lexicon().months for w in words) \
        and any(w.isdigit() for w in words)


def _cv_date(doc: ExtractedDoc, as_of: dt.date | None, mentioned: list[str]) -> tuple[str | None, str | None]:
    """The CV's own date as "YYYY-MM" and its source: a printed "updated" line or dated signature,
    else the file's creation date; (None, None) when neither is known (the import date then serves).

    A bare full date in its own cell (a running footer's "JUNE 2, 2024") counts as printed. That
    stamp, or a file date, older than a date the CV itself mentions (``mentioned``, "YYYY[-MM]")
    is a certificate's date, a tool's fixed stamp or a copied file's, and is ignored.
    """
    texts = [ln.text for ln in doc.lines] + list(doc.running)  # a running footer may carry the date
    found = find_cv_date(texts, as_of)
    if found:
        return found[0].strftime("%Y-%m"), "printed"

    def believable(d: dt.date | None) -> bool:
        return d is not None and not any(m[:7] > d.strftime("%Y-%m") for m in mentioned if m)

    stamp = find_date_stamp(texts, as_of)
    if stamp and believable(stamp[0]):
        return stamp[0].strftime("%Y-%m"), "printed"
    created = file_date(doc.created, as_of)
    return (created.strftime("%Y-%m"), "file") if believable(created) else (None, None)


BUNDLED = "bundled"  # the section-kind model shipped in resources/ (``kinds=None``: the rules alone)


def normalize_document(doc: ExtractedDoc, as_of: dt.date | None = None, roles: LineRoleModel | None = None,
                       kinds: SectionKindModel | str | None = BUNDLED) -> tuple[NormalizedCV, list[SectionBlock]]:
    """Read the structured record out of an extracted CV; also returns its section blocks.

    ``roles`` (a :class:`~cvrag_desktop.ingestion.layout.line_roles.LineRoleModel`) decides the name line
    instead of the hand-written rules (leave-one-source-out evaluation trains one per fold). ``kinds``
    (a :class:`~cvrag_desktop.ingestion.layout.section_kinds.SectionKindModel`, by default the bundled one)
    says what a section under a heading the lexicon does not know holds.
    """
    blocks = find_sections(doc)
    model = bundled_model() if kinds == BUNDLED else kinds
    if isinstance(model, SectionKindModel):
        blocks = model.rename(doc, blocks)
    sec = _by_section(blocks)
    prov = _Prov(doc)
    lines = doc.lines
    header = set(sec.get("contact", []))
    first_heading = next((b.heading for b in blocks if b.heading is not None), len(lines))
    header |= {i for i in range(min(first_heading, 25))}

    euro = read_europass(lines)  # a Europass CV: its label rows say what each value is
    name = contact.Hit(*euro.name) if euro and euro.name else (
        roles.find_name(doc) if roles is not None else names.find_name(doc))
    headline = contact.Hit(*euro.headline) if euro and euro.headline else find_headline(doc, name)
    referees = {i for b in blocks if b.heading is not None
                and (_REFEREES.search(b.title) or _REFEREES.search(b.title.replace(" ", ""))) for i in b.lines}
    emails = [h for h in contact.find_emails(doc) if h.line not in referees]  # a referee's address is not theirs
    phones = contact.find_phones(doc, header)
    links = contact.find_links(doc, header)
    location = contact.find_location(doc, header, name)
    prov.add("name", name.value if name else None, name.line if name else None)
    prov.add("headline", headline.value if headline else None, headline.line if headline else None)
    for h in emails:
        prov.add("emails", h.value, h.line)
    for h in phones:
        prov.add("phones", h.value, h.line)
    if location:
        prov.add("location", location.value, location.line)

    experiences = []
    found_exp = euro.experiences if euro and euro.experiences else (
        read_grouped_history(lines, sec.get("experience", []))
        or parse_experiences(lines, sec.get("experience", [])))
    for n, (exp, where) in enumerate(found_exp):
        experiences.append(exp)
        prov.add(f"experiences[{n}].title", exp.title, where.get("title"))
        prov.add(f"experiences[{n}].company", exp.company, where.get("company"))
    education = []
    found_edu = euro.education if euro and euro.education else (
        read_grouped_education(lines, sec.get("education", []))
        or parse_education(lines, sec.get("education", [])))
    for n, (ed, where) in enumerate(found_edu):
        education.append(ed)
        prov.add(f"education[{n}].degree", ed.degree, where.get("degree"))
        prov.add(f"education[{n}].institution", ed.institution, where.get("institution"))

    other_idx = [i for b in blocks if b.section not in ("contact", "skills") for i in b.lines]
    if euro:
        skills = extract_skills(euro.value_view(lines), euro.skill_lines, other_idx)
    else:
        skills = [(s, i) for s, i in extract_skills(lines, sec.get("skills", []), other_idx)
              if not _not_a_skill(s, name.value if name else None, headline.value if headline else None)]
    for s, i in skills:
        prov.add("skills", s, i)
    shared = _side_by_side(blocks)
    for section, idx in _heading_cells(blocks, lines).items():
        shared.setdefault(section, idx)
    languages = extract_languages(lines, sec.get("languages", []) or shared.get("languages", []),
                                  list(range(len(lines))))
    if euro and euro.languages:
        languages = euro.languages
    for s, i in languages:
        prov.add("languages", s, i)
    certs = extract_certifications(lines, sec.get("certifications", []) or shared.get("certifications", []),
                                   skip_languages="languages" in shared)
    for s, i in certs:
        prov.add("certifications", s, i)
    summary_lines = sec.get("summary", [])
    summary = " ".join(lines[i].text.replace("\t", " ") for i in summary_lines)[:2000] or None

    mentioned = [d for e in experiences for d in (e.start, e.end)] + [e.end for e in education]
    cv_date, cv_date_source = _cv_date(doc, as_of, [d for d in mentioned if d])
    present = [b.section for b in blocks if b.lines or b.heading is not None]
    if not (emails or phones or name) and "contact" in present and not sec.get("contact"):
        present.remove("contact")
    sections = [s for s in dict.fromkeys(present) if s != "contact" or emails or phones or links]
    cv = NormalizedCV(
        name=name.value if name else None,
        headline=headline.value if headline else None,
        emails=[h.value for h in emails],
        phones=[h.value for h in phones],
        links=[h.value for h in links][:10],
        location=location.value if location else None,
        summary=summary,
        experiences=experiences,
        education=education,
        skills=[s for s, _ in skills],
        languages=[s for s, _ in languages],
        certifications=[s for s, _ in certs],
        sections=sections,
        provenance=prov.items,
        cv_date=cv_date,
        cv_date_source=cv_date_source,
    ).with_derived(as_of)
    if cv.current_title:
        line = next((p for p in prov.items if p.value == cv.current_title), None)
        if line:
            prov.items.append(line.model_copy(update={"field": "current_title"}))
    cv = score_confidence(cv, doc, blocks)
    return cv, blocks
