"""What an unnamed section holds, from its content: a trained decision (a linear-chain CRF over sections).

The lexicon names a section when its heading is a phrase it knows ("Berufserfahrung", "Education").
A heading it does not know ("Work", "Parcours", "Stationen") in the template's heading style starts an
``other`` section, and everything in it was lost: a history under "Work" gave no roles. The content
says what such a section is whatever its language: periods of dates over short header lines are a
history; degree and school words over periods are an education; short listed items are skills.

Each section block of a CV is one item of a sequence; its features are the block's content (shares of
lines with a period of dates, with title, company, degree, school, language or skill words, bullets,
sentences, contacts, emphasis), its size and place, and the heading's *partial* lexicon hit — never the
words themselves, and never the exact heading hit (the model decides only where the lexicon could
not). Trained on the layout zoo, whose line roles say what each block holds
(``evaluation/section_training.py``; ``make train`` writes ``resources/models/section_kinds.crfsuite``).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from cvrag_desktop.ingestion.fields.dates import find_date_ranges
from cvrag_desktop.ingestion.fields.identity import contact
from cvrag_desktop.ingestion.layout.line_kinds import BULLET
from cvrag_desktop.ingestion.layout.sections import SectionBlock, body_size, lexicon_section
from cvrag_desktop.ingestion.read.extracted import ExtractedDoc
from cvrag_desktop.text.vocab.lexicon import load_lexicon
from cvrag_desktop.text.vocab.resources import resources_dir
from cvrag_desktop.text.vocab.skills import canonical_skill

EXPERIENCE, EDUCATION, SKILLS, LANGUAGES, OTHER = "experience", "education", "skills", "languages", "other"
KINDS = (EXPERIENCE, EDUCATION, SKILLS, LANGUAGES, OTHER)
MODEL_FILE = "section_kinds.crfsuite"
THRESHOLD = 0.6  # the model renames a section only when at least this sure
RENAMED = (EXPERIENCE, EDUCATION)  # the kinds the product reads entries from; the rest stay "other"
log = logging.getLogger(__name__)


def _ratio(n: int, total: int) -> str:
    if not n:
        return "0"
    r = n / max(total, 1)
    return "a" if r < 0.1 else "b" if r < 0.25 else "c" if r < 0.5 else "d" if r < 0.75 else "e"


def _count(n: int) -> str:
    return str(n) if n < 4 else "4-7" if n < 8 else "8-15" if n < 16 else "16+"


def block_features(doc: ExtractedDoc, blocks: list[SectionBlock]) -> list[dict[str, float]]:
    """One feature dict per block of ``blocks`` (content shares, size, place, heading's partial hit)."""
    lines = doc.lines
    lex = load_lexicon()
    body = body_size(lines) or 10.0
    out: list[dict[str, float]] = []
    for k, b in enumerate(blocks):
        idx = [i for i in b.lines if lines[i].text.strip()]
        n = len(idx)
        counts = dict.fromkeys(("date", "title", "company", "degree", "school", "lang", "skill", "bullet",
                                "sentence", "contact", "bold", "big", "short", "tab", "digits"), 0)
        ranges = 0
        for i in idx:
            ln = lines[i]
            t = ln.text.strip()
            found = len(find_date_ranges(t))
            ranges += found
            cells = [c.strip() for c in t.split("\t") if c.strip()]
            words = t.split()
            counts["date"] += bool(found)
            counts["title"] += bool(lex.title_re.search(t))
            counts["company"] += bool(lex.company_re.search(t))
            counts["degree"] += bool(lex.degree_re.search(t))
            counts["school"] += bool(lex.institution_re.search(t))
            counts["lang"] += any(lex.language_re.match(c) for c in cells)
            counts["skill"] += any(canonical_skill(c) for c in cells)
            counts["bullet"] += bool(BULLET.match(t)) and not found
            counts["sentence"] += t.endswith(".") and len(words) > 5
            counts["contact"] += bool(contact.EMAIL.search(t) or contact.URL.search(t))
            counts["bold"] += ln.bold
            counts["big"] += ln.size > body * 1.08
            counts["short"] += len(words) <= 4
            counts["tab"] += len(cells) > 1
            counts["digits"] += any(c.isdigit() for c in t)
        f: dict[str, float] = {"bias": 1.0, f"lines={_count(n)}": 1.0, f"ranges={_count(ranges)}": 1.0}
        for key, c in counts.items():
            f[f"{key}={_ratio(c, n)}"] = 1.0
        heading = lines[b.heading].text.strip() if b.heading is not None else ""
        part = lexicon_section(heading, partial=True) if heading else None
        f["heading=" + ("none" if b.heading is None else "partial:" + part if part else "unknown")] = 1.0
        if heading:
            f[f"heading_words={min(len(heading.split()), 4)}"] = 1.0
        f[f"place={'first' if k == 0 else 'last' if k == len(blocks) - 1 else 'mid'}"] = 1.0
        cols = {lines[i].column for i in idx}
        f[f"column={min(cols) if len(cols) == 1 else 'mixed'}"] = 1.0
        out.append(f)
    for k, f in enumerate(out):  # the neighbours' main content
        for off, tag in ((-1, "prev"), (1, "next")):
            j = k + off
            if 0 <= j < len(out):
                for key in ("date", "degree", "skill", "title"):
                    hit = next((name for name in out[j] if name.startswith(key + "=")), f"{key}=0")
                    f[f"{tag}:{hit}"] = 1.0
            else:
                f[f"{tag}:none"] = 1.0
    return out


@dataclass
class SectionKindModel:
    """A trained CRF that says what each section block holds (``kinds``), with its probability."""

    path: Path
    threshold: float = THRESHOLD

    def __post_init__(self) -> None:
        import pycrfsuite

        self._tagger = pycrfsuite.Tagger()
        self._tagger.open(str(self.path))

    def kinds(self, doc: ExtractedDoc, blocks: list[SectionBlock]) -> list[tuple[str, float]]:
        """(kind, probability) for each block, in order."""
        feats = block_features(doc, blocks)
        if not feats:
            return []
        self._tagger.set(feats)
        labels = self._tagger.tag()
        return [(lab, self._tagger.marginal(lab, t)) for t, lab in enumerate(labels)]

    def rename(self, doc: ExtractedDoc, blocks: list[SectionBlock]) -> list[SectionBlock]:
        """``blocks`` with each ``other`` block the model is sure holds a history or an education renamed.

        Only a block under a heading the lexicon did not know is renamed, and only to a kind the CV has no
        section of: beside a named history, an unknown heading over dated lines is far likelier courses,
        projects or volunteering (the labelled real CVs lost precision when such blocks were renamed)."""
        have = {b.section for b in blocks}
        if not any(_unnamed(b) for b in blocks) or not set(RENAMED) - have:
            return blocks
        out = []
        for b, (kind, p) in zip(blocks, self.kinds(doc, blocks), strict=True):
            if _unnamed(b) and kind in RENAMED and kind not in have \
                    and p >= self.threshold and _readable_as(kind, doc, b):
                b = SectionBlock(kind, b.title, b.heading, list(b.lines))
            out.append(b)
        return out


def _unnamed(block: SectionBlock) -> bool:
    """A block under a heading found by its style alone: the lexicon did not know it (a known "References"
    or "Volunteering" is "other" by the lexicon's word and keeps it)."""
    return block.section == "other" and block.heading is not None and not block.known


def _readable_as(kind: str, doc: ExtractedDoc, block: SectionBlock) -> bool:
    """The least the readers need from a renamed block: a history has three lines or more and a period of
    dates; an education a degree word on a quarter of its lines (a list of courses taught, awards or a
    sports club's two lines has neither kind's anchor)."""
    texts = [doc.lines[i].text for i in block.lines if doc.lines[i].text.strip()]
    if kind == EXPERIENCE:
        return len(texts) >= 3 and any(find_date_ranges(t) for t in texts)
    degree = load_lexicon().degree_re
    return sum(bool(degree.search(t)) for t in texts) >= max(1, len(texts) / 4)


@lru_cache(maxsize=1)
def bundled_model() -> SectionKindModel | None:
    """The model shipped in ``resources/models/`` (None when the file is missing or damaged: the rules
    decide alone, and a damaged file is logged rather than failing every import)."""
    path = resources_dir() / "models" / MODEL_FILE
    if not path.is_file():
        return None
    try:
        return SectionKindModel(path)
    except (OSError, ValueError) as exc:  # pycrfsuite: "Invalid model file"
        log.warning("section-kind model %s unreadable (%s): sections are named by the lexicon alone", path, exc)
        return None
