"""How far to trust each extracted identity and role value: a score in [0, 1] and a reason.

"Precision over guessing" (issue 20): a recruiter should see which values to check. The
score of a value is a prior plus the weights of a few named cues read from evidence the
extractor already has — the line the value came from (page-one header zone, type size,
bold), the section it sits in, the vocabulary of ``resources/lexicon.yaml`` and
``resources/headings.yaml``, the e-mail address, the other lines of the document — clipped
to [0, 1]. No cue is fitted to a document; the weights are round numbers chosen so that a
value with its kind's main cue and its usual context scores above :data:`LOW_CONFIDENCE`,
and one that lacks the main cue or carries a contrary one falls below it.

The reason names the cues that were missing or contrary ("name: not in the header; no
e-mail agreement"); it never quotes CV text, so it is safe in blind screening and logs.
Scored fields: name, headline, current_title, current_company, experiences[n].title,
experiences[n].company, education[n].degree, education[n].institution.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from cvrag_desktop.domain import LOW_CONFIDENCE, NormalizedCV, Provenance
from cvrag_desktop.ingestion.fields.cells import is_location
from cvrag_desktop.ingestion.fields.dates import find_date_ranges
from cvrag_desktop.ingestion.fields.role_text import not_a_degree
from cvrag_desktop.ingestion.layout.sections import SectionBlock, body_size
from cvrag_desktop.ingestion.read.extracted import ExtractedDoc
from cvrag_desktop.text.keys import heading_key, normalize_key
from cvrag_desktop.text.vocab.lexicon import load_lexicon
from cvrag_desktop.text.vocab.places import is_place_name
from cvrag_desktop.text.vocab.skills import canonical_skill

__all__ = ["CUES", "LOW_CONFIDENCE", "PRIORS", "document_contexts", "kind_of", "score_confidence", "score_value"]

_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")
_NAME_WORD = re.compile(r"^[^\W\d_][^\W\d_'’.\-]*(?:[.'’\-][^\W\d_]+)*\.?$")
_PARTICLES = frozenset({"de", "del", "della", "la", "le", "van", "von", "der", "den", "ten", "ter", "zu", "da",
                        "das", "do", "dos", "du", "des", "di", "bin", "al", "y", "e"})
_ROLE_FIELD = re.compile(r"^(experiences|education)\[(\d+)\]\.(\w+)$")


@dataclass
class _Ctx:
    """What the cues may look at for one value: the document, its sections and the value's line."""

    cv: NormalizedCV
    doc: ExtractedDoc
    field: str
    value: str
    line: int | None
    header: set[int]
    section_of: dict[int, str]
    body: float
    top_size: float
    name_line: int | None
    keys: dict[str, set[int]] = field(default_factory=dict)  # normalized line text -> its line indices

    @property
    def ln(self):
        """The value's line, or None."""
        return self.doc.lines[self.line] if self.line is not None else None


@dataclass(frozen=True)
class Cue:
    """One named piece of evidence: ``weight`` is added when ``test`` holds (negative = contrary).

    ``missing`` is the reason text when a positive cue does not hold, ``present`` when a
    negative cue holds.
    """

    name: str
    weight: float
    test: Callable[[_Ctx], bool]
    missing: str = ""
    present: str = ""


# ---- the tests ---------------------------------------------------------------------------------------------
def _words(v: str) -> list[str]:
    return v.split()


def _in_header(c: _Ctx) -> bool:
    return c.line is not None and c.line in c.header and c.ln.page == 0


def _prominent(c: _Ctx) -> bool:
    ln = c.ln
    return ln is not None and ln.page == 0 and (ln.size >= 0.95 * c.top_size or ln.size >= 1.3 * c.body)


def _person_shaped(c: _Ctx) -> bool:
    v = c.value.strip()
    if _CJK.search(v):
        return 2 <= len(re.sub(r"[\s\u3000・·•]", "", v)) <= 6 and not re.search(r"\d", v)
    words = _words(v)
    caps = [w for w in words if w.lower() not in _PARTICLES]
    return 2 <= len(caps) <= 4 and len(words) <= 6 and all(_NAME_WORD.match(w) for w in words) \
        and all(w[0].isupper() for w in caps)


def _heading_word(c: _Ctx) -> bool:
    lex = load_lexicon()
    return heading_key(c.value) in lex.headings or normalize_key(c.value) in lex.name_stopwords


def _job_words(c: _Ctx) -> bool:
    return bool(load_lexicon().title_re.search(c.value))


def _email_agrees(c: _Ctx) -> bool:
    tokens = [t for t in re.split(r"[\s\-'’.]+", normalize_key(c.value)) if len(t) >= 3]
    for e in c.cv.emails:
        local = re.sub(r"[^a-z]", "", normalize_key(e.split("@")[0]))
        if any(t in local for t in tokens):
            return True
    return False


def _in_section(name: str) -> Callable[[_Ctx], bool]:
    return lambda c: c.line is not None and c.section_of.get(c.line) == name


def _near_dates(c: _Ctx) -> bool:
    if c.line is None:
        return False
    lines = c.doc.lines
    return any(find_date_ranges(lines[i].text) for i in range(max(0, c.line - 2), min(len(lines), c.line + 3)))


def _phrase_shaped(c: _Ctx) -> bool:
    v = c.value.strip()
    return len(_words(v)) <= 8 and not v.endswith(".") and not (v[:1].islower() and " " in v)


def _firm_words(c: _Ctx) -> bool:
    lex = load_lexicon()
    return bool(lex.company_re.search(c.value) or lex.institution_re.search(c.value))


def _firm_not_title(c: _Ctx) -> bool:
    return _firm_words(c) and not _job_words(c)


def _place(c: _Ctx) -> bool:
    v = c.value.strip()
    return is_location(v) or is_place_name(v) or is_place_name(v.split(",")[0].strip())


def _title_not_firm(c: _Ctx) -> bool:
    return _job_words(c) and not _firm_words(c)


def _skill(c: _Ctx) -> bool:
    return bool(canonical_skill(c.value))


def _firm_shaped(c: _Ctx) -> bool:
    v = c.value.strip()
    return 1 <= len(_words(v)) <= 6 and not v.endswith(".") and (not v[:1].islower() or " " not in v) \
        and not find_date_ranges(v)


def _repeated(c: _Ctx) -> bool:
    key = normalize_key(c.value)
    if len(key) < 3:
        return False
    return sum(len(at) for k, at in c.keys.items() if key in k) >= 2


def _degree_words(c: _Ctx) -> bool:
    return bool(load_lexicon().degree_re.search(c.value))


def _thesis_or_place(c: _Ctx) -> bool:
    return not_a_degree(c.value)


def _school_not_degree(c: _Ctx) -> bool:
    return bool(load_lexicon().institution_re.search(c.value)) and not _degree_words(c)


def _institution_words(c: _Ctx) -> bool:
    lex = load_lexicon()
    return bool(lex.institution_re.search(c.value) or lex.company_re.search(c.value))


def _degree_not_school(c: _Ctx) -> bool:
    return _degree_words(c) and not _institution_words(c)


def _near_name(c: _Ctx) -> bool:
    return c.line is not None and c.name_line is not None and abs(c.line - c.name_line) <= 4


def _sibling(c: _Ctx, part: str) -> str | None:
    """The other half of the value's role ("experiences[2].title" -> that role's company)."""
    m = _ROLE_FIELD.match(c.field)
    entries = c.cv.experiences if m and m.group(1) == "experiences" else c.cv.education
    if not m or int(m.group(2)) >= len(entries):
        return None
    return getattr(entries[int(m.group(2))], part)


def _role_has_title(c: _Ctx) -> bool:
    """The role's title carries job-title vocabulary: the pair was read in the right order."""
    other = _sibling(c, "title")
    return bool(other and load_lexicon().title_re.search(other))


def _role_has_firm(c: _Ctx) -> bool:
    """The role's employer carries a legal form or institution word: the pair was read in the right order."""
    other = _sibling(c, "company")
    lex = load_lexicon()
    return bool(other and (lex.company_re.search(other) or lex.institution_re.search(other)))


def _entry_has_school(c: _Ctx) -> bool:
    """The degree's entry names an institution too."""
    return bool(_sibling(c, "institution"))


def _entry_has_degree(c: _Ctx) -> bool:
    """The institution's entry names a degree with degree vocabulary."""
    other = _sibling(c, "degree")
    return bool(other and load_lexicon().degree_re.search(other))


def _ocr(c: _Ctx) -> bool:
    return "ocr" in (c.doc.method or "")


_OCR = Cue("ocr", -0.1, _ocr, present="read by OCR")
_DIGITS = Cue("digits", -0.2, lambda c: any(ch.isdigit() for ch in c.value), present="holds digits")
_HEADING = Cue("heading_word", -0.4, _heading_word, present="a section heading word")

# ---- the cues per kind of value ------------------------------------------------------------------------------
# Each kind has a main cue (its vocabulary or, for a name, its shape), context cues (where the line sits) and
# an agreement cue (the other half of the entry, or the e-mail, confirms the reading). With the main cue and its
# context a value scores >= 0.5; without the main cue it needs the agreement cue to get there.
# Title and employer (issue 36, calibrated with ``evaluation/calibration.py``): a title without job-title words, or
# an employer whose role has no recognisable title, stays below the threshold whatever else agrees; digits or a
# heading word in either, or over eight words in a title, is contrary evidence.
PRIORS: dict[str, float] = {"name": 0.1, "headline": 0.15, "title": 0.05, "company": 0.05, "degree": 0.2,
                            "institution": 0.15}
CUES: dict[str, tuple[Cue, ...]] = {
    "name": (
        Cue("header", 0.2, _in_header, missing="not in the header"),
        Cue("large_type", 0.2, _prominent, missing="not in the largest type"),
        Cue("person_shape", 0.3, _person_shaped, missing="not shaped like a person's name"),
        Cue("email_agrees", 0.2, _email_agrees, missing="no e-mail agreement"),
        Cue("heading_word", -0.4, _heading_word, present="a section heading word"),
        Cue("job_words", -0.3, _job_words, present="job-title words"),
        _OCR,
    ),
    "headline": (
        Cue("header", 0.2, _in_header, missing="not in the header"),
        Cue("title_words", 0.35, _job_words, missing="no job-title vocabulary"),
        Cue("phrase", 0.15, _phrase_shaped, missing="reads like a sentence"),
        Cue("near_name", 0.15, _near_name, missing="not next to the name"),
        Cue("heading_word", -0.4, _heading_word, present="a section heading word"),
        _OCR,
    ),
    "title": (
        Cue("experience_section", 0.05, _in_section("experience"), missing="not in an experience section"),
        Cue("title_words", 0.45, _job_words, missing="no job-title vocabulary"),
        Cue("near_dates", 0.15, _near_dates, missing="not next to the role's dates"),
        Cue("phrase", 0.1, _phrase_shaped, missing="reads like a sentence"),
        Cue("role_firm", 0.1, _role_has_firm, missing="its employer has no legal form"),
        Cue("firm_words", -0.25, _firm_not_title, present="looks like an employer"),
        Cue("place", -0.3, _place, present="looks like a place"),
        Cue("long", -0.2, lambda c: len(_words(c.value)) > 8, present="too long for a title"),
        _DIGITS, _HEADING, _OCR,
    ),
    "company": (
        Cue("experience_section", 0.05, _in_section("experience"), missing="not in an experience section"),
        Cue("legal_form", 0.3, _firm_words, missing="no legal form or institution word"),
        Cue("near_dates", 0.1, _near_dates, missing="not next to the role's dates"),
        Cue("firm_shape", 0.1, _firm_shaped, missing="not shaped like a firm's name"),
        Cue("role_title", 0.3, _role_has_title, missing="its role has no recognisable title"),
        Cue("repeated", 0.1, _repeated, missing="printed once"),
        Cue("title_words", -0.3, _title_not_firm, present="job-title words"),
        Cue("place", -0.3, _place, present="looks like a place"),
        Cue("skill", -0.2, _skill, present="a skill's name"),
        _DIGITS, _HEADING, _OCR,
    ),
    "degree": (
        Cue("education_section", 0.05, _in_section("education"), missing="not in an education section"),
        Cue("degree_words", 0.4, _degree_words, missing="no degree vocabulary"),
        Cue("phrase", 0.05, lambda c: len(_words(c.value)) <= 12, missing="too long for a degree"),
        Cue("entry_school", 0.15, _entry_has_school, missing="no institution in its entry"),
        Cue("thesis_or_place", -0.4, _thesis_or_place, present="a thesis, project or place line"),
        Cue("school_words", -0.2, _school_not_degree, present="looks like a school"),
        _OCR,
    ),
    "institution": (
        Cue("education_section", 0.05, _in_section("education"), missing="not in an education section"),
        Cue("institution_words", 0.25, _institution_words, missing="no institution word"),
        Cue("firm_shape", 0.1, _firm_shaped, missing="not shaped like a school's name"),
        Cue("entry_degree", 0.2, _entry_has_degree, missing="no degree in its entry"),
        Cue("degree_words", -0.25, _degree_not_school, present="degree words"),
        Cue("place", -0.3, _place, present="looks like a place"),
        _OCR,
    ),
}


def score_value(kind: str, ctx: _Ctx) -> tuple[float, str]:
    """The confidence of one value of ``kind`` and the reason (missing or contrary cues; "" if none)."""
    score = PRIORS[kind]
    why = []
    for cue in CUES[kind]:
        hit = cue.test(ctx)
        if hit:
            score += cue.weight
        if cue.weight > 0 and not hit and cue.missing:
            why.append(cue.missing)
        elif cue.weight < 0 and hit:
            why.append(cue.present)
    score = round(min(1.0, max(0.0, score)), 2)
    label = kind.replace("company", "employer")
    return score, f"{label}: {'; '.join(why)}" if why else ""


def kind_of(field_name: str) -> str | None:
    """The kind of value a provenance field holds ("experiences[2].company" -> "company"), None if unscored."""
    if field_name in ("name", "headline"):
        return field_name
    m = _ROLE_FIELD.match(field_name)
    return m.group(3) if m and m.group(3) in CUES else None


def document_contexts(cv: NormalizedCV, doc: ExtractedDoc, blocks: list[SectionBlock]
                      ) -> Callable[[Provenance], _Ctx]:
    """A function giving the cue context of a provenance record of ``cv`` (the document read once)."""
    lines = doc.lines
    starts = [doc.line_span(i)[0] for i in range(len(lines))]
    section_of = {i: b.section for b in blocks for i in b.lines}
    first_heading = next((b.heading for b in blocks if b.heading is not None), len(lines))
    header = {i for b in blocks if b.section == "contact" for i in b.lines} | set(range(min(first_heading, 25)))
    page0 = [ln.size for ln in lines if ln.page == 0] or [0.0]
    keys: dict[str, set[int]] = {}
    for i, ln in enumerate(lines):
        keys.setdefault(normalize_key(ln.text), set()).add(i)

    def line_of(p: Provenance) -> int | None:
        if p.char_start is None or not starts:
            return None
        return max(0, bisect.bisect_right(starts, p.char_start) - 1)

    name_line = next((line_of(p) for p in cv.provenance if p.field == "name"), None)
    base = dict(cv=cv, doc=doc, header=header, section_of=section_of, body=body_size(lines) or 10.0,
                top_size=max(page0), name_line=name_line, keys=keys)
    return lambda p: _Ctx(field=p.field, value=p.value, line=line_of(p), **base)


def score_confidence(cv: NormalizedCV, doc: ExtractedDoc, blocks: list[SectionBlock]) -> NormalizedCV:
    """A copy of ``cv`` whose scored provenance records carry ``confidence`` and ``reason``.

    ``current_title`` and ``current_company`` get a record of their own, copied from the role
    (or the headline) they were derived from, so the candidate table can mark them.
    """
    if not doc.lines:
        return cv
    context = document_contexts(cv, doc, blocks)
    out: list[Provenance] = []
    for p in cv.provenance:
        kind = kind_of(p.field)
        if p.field in ("current_title", "current_company"):
            continue  # re-derived below from the scored role
        if kind is None:
            out.append(p)
            continue
        score, reason = score_value(kind, context(p))
        out.append(p.model_copy(update={"confidence": score, "reason": reason or None}))
    out += _derived(cv, out)
    return cv.model_copy(update={"provenance": out})


def _derived(cv: NormalizedCV, prov: list[Provenance]) -> list[Provenance]:
    """Records for ``current_title``/``current_company``: the role's (current one first), else the headline's."""
    current = next((n for n, e in enumerate(cv.experiences) if e.is_current), None)
    out = []
    for derived, part, fallback in (("current_title", "title", "headline"), ("current_company", "company", None)):
        value = getattr(cv, derived)
        if not value:
            continue
        fields = ([f"experiences[{current}].{part}"] if current is not None else []) + [
            f"experiences[{n}].{part}" for n in range(len(cv.experiences))] + ([fallback] if fallback else [])
        by_field = {p.field: p for p in prov if p.value == value}
        src = next((by_field[f] for f in fields if f in by_field), None)
        if src is not None:
            out.append(src.model_copy(update={"field": derived}))
    return out
