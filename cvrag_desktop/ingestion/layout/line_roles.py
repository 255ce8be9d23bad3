"""Line roles from a trained sequence model (a linear-chain CRF, python-crfsuite).

The first lines of a CV's first page are labelled ``name`` or ``O`` by a CRF over features of each
line and its neighbours: typography relative to the document (size ratio and rank, weight,
capitals), geometry (order, height on the page, column), pattern and lexicon hits (headings in
every lexicon language, title, company, institution, degree and language words, places, skills,
e-mail, phone, URL, digits) and the hand-written rules' own verdicts (``_name_shaped``, the rule's
pick). The rules become features and the decision is learned, as in GROBID's header model.

Training data: the factory's CVs (their truth names the person) and labelled real documents aligned
to lines by their name label (``evaluation/fold_training.py``; ``make train`` writes
``resources/models/line_roles.crfsuite``). The model is used only where held-out sources say it does
better than the rules (``cvrag eval --folds source --model both``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from cvrag_desktop.ingestion.fields.identity import contact, names
from cvrag_desktop.ingestion.layout.sections import body_size, lexicon_section
from cvrag_desktop.ingestion.read.extracted import ExtractedDoc
from cvrag_desktop.text.vocab.lexicon import load_lexicon
from cvrag_desktop.text.vocab.places import is_place_name
from cvrag_desktop.text.vocab.skills import canonical_skill

TOP_LINES = 60  # lines of page one the name is looked for in (as the rules do)
NAME = "name"
OTHER = "O"


def _bucket(x: float, edges: Iterable[float]) -> str:
    for k, e in enumerate(edges):
        if x < e:
            return str(k)
    return "top"


def top_lines(doc: ExtractedDoc) -> list[int]:
    """Indices of the lines the model labels: the first lines of page one."""
    return [i for i, ln in enumerate(doc.lines) if ln.page == 0][:TOP_LINES]


def _cell(text: str) -> str:
    cells = contact.split_cells(text)
    return cells[0] if cells else text.strip()


def doc_features(doc: ExtractedDoc, rule: contact.Hit | None = None) -> list[dict[str, float]]:
    """One feature dict per line of :func:`top_lines` (neighbours' main features included).

    ``rule`` is the rules' name pick when the caller has it already (else it is computed here).
    """
    lines = doc.lines
    idx = top_lines(doc)
    if not idx:
        return []
    lex = load_lexicon()
    body = body_size(lines) or 10.0
    sizes = sorted({round(lines[i].size, 1) for i in idx}, reverse=True)
    page_h = doc.page_sizes[0][1] if doc.page_sizes else 800.0
    rule = rule if rule is not None else names.find_name(doc)
    own: list[dict[str, float]] = []
    for rank, i in enumerate(idx):
        ln = lines[i]
        text = ln.text.strip()
        cell = names.clean_name(_cell(text), split_joined=ln.size >= 1.3 * body)
        letters = [c for c in text if c.isalpha()]
        words = text.split()
        f: dict[str, float] = {
            "bias": 1.0,
            f"size={_bucket(ln.size / body, (0.9, 1.05, 1.2, 1.4, 1.8, 2.4))}": 1.0,
            f"size_rank={min(sizes.index(round(ln.size, 1)), 4)}": 1.0,
            f"order={_bucket(rank, (1, 2, 3, 5, 8, 15, 30))}": 1.0,
            f"y={_bucket(ln.y0 / max(page_h, 1.0), (0.08, 0.15, 0.25, 0.4, 0.6))}": 1.0,
            f"words={_bucket(len(words), (2, 3, 4, 6, 9))}": 1.0,
            f"cells={min(len(contact.split_cells(text)), 3)}": 1.0,
            f"col={ln.column}": 1.0,
            "bold": float(ln.bold),
            "caps": float(bool(letters) and all(c.isupper() for c in letters)),
            "lower": float(bool(letters) and all(c.islower() for c in letters)),
            "titlecase": float(bool(words) and all(w[:1].isupper() for w in words if w[:1].isalpha())),
            "digit": float(any(c.isdigit() for c in text)),
            "email": float(bool(contact.EMAIL.search(text))),
            "url": float(bool(contact.URL.search(text))),
            "colon": float(":" in text or "：" in text),
            "comma": float("," in text),
            "sentence": float(text.endswith(".") and len(words) > 3),
            "heading": float(lexicon_section(text) is not None),
            "heading_part": float(lexicon_section(text, partial=True) is not None),
            "docx_heading": float(bool(ln.flags.get("docx_heading"))),
            "title_word": float(bool(lex.title_re.search(text))),
            "company_word": float(bool(lex.company_re.search(text))),
            "institution_word": float(bool(lex.institution_re.search(text))),
            "degree_word": float(bool(lex.degree_re.search(text))),
            "language": float(bool(lex.language_re.fullmatch(cell))),
            "place": float(is_place_name(cell)),
            "skill": float(bool(canonical_skill(cell))),
            "name_shaped": float(names.name_shaped(cell)),
            "single_name": float(names.single_name(cell, ln.size, body)),
            "rule_pick": float(rule is not None and rule.line == i),
            "cjk": float(bool(names.CJK.search(text))),
        }
        own.append(f)
    keys = ("heading", "email", "name_shaped", "bold", "caps", "rule_pick")
    out: list[dict[str, float]] = []
    for k, f in enumerate(own):
        g = dict(f)
        for off, tag in ((-1, "prev"), (1, "next")):
            j = k + off
            if 0 <= j < len(own):
                for key in keys:
                    if own[j].get(key):
                        g[f"{tag}:{key}"] = 1.0
                a, b = lines[idx[k]].size, lines[idx[j]].size
                g[f"{tag}:{'bigger' if a > b + 0.3 else 'smaller' if a < b - 0.3 else 'same'}"] = 1.0
            else:
                g[f"{tag}:none"] = 1.0
        out.append(g)
    return out


@dataclass
class LineRoleModel:
    """A trained CRF tagger for line roles; ``find_name`` reads the name from the labelled lines."""

    path: Path
    threshold: float = 0.5
    backoff: bool = True  # below the threshold the rules decide (the model overrides them only when sure)

    def __post_init__(self) -> None:
        import pycrfsuite

        self._tagger = pycrfsuite.Tagger()
        self._tagger.open(str(self.path))

    def name_probabilities(self, doc: ExtractedDoc, rule: contact.Hit | None = None) -> list[tuple[int, float]]:
        """(line index, P(name)) for each of the first lines of page one (``rule``: the rules' pick, if known)."""
        feats = doc_features(doc, rule)
        if not feats:
            return []
        self._tagger.set(feats)
        idx = top_lines(doc)
        return [(idx[t], self._tagger.marginal(NAME, t)) for t in range(len(feats))]

    def find_name(self, doc: ExtractedDoc) -> contact.Hit | None:
        """The most probable name line's name cell, or None when no line is likely a name."""
        rule = names.find_name(doc)
        probs = self.name_probabilities(doc, rule)
        if not probs:
            return rule if self.backoff else None
        i, p = max(probs, key=lambda x: x[1])
        if p < self.threshold:
            return rule if self.backoff else None
        if rule is not None and rule.line in (i, i - 1):
            return rule  # the rules read this line too (and join a name wrapped over two lines)
        ln = doc.lines[i]
        body = body_size(doc.lines) or 10.0
        for raw in contact.split_cells(ln.text):
            cell = names.clean_name(raw, split_joined=ln.size >= 1.3 * body)
            if names.name_shaped(cell) or names.single_name(cell, ln.size, body):
                return contact.Hit(cell, i)
        cell = names.clean_name(_cell(ln.text), split_joined=ln.size >= 1.3 * body)
        if not cell or len(cell) > 60 or re.search(r"[@/:]|\d", cell):
            return None
        return contact.Hit(cell, i)
