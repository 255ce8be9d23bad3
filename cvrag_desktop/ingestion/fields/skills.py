"""Skills, spoken languages and certifications.

Skills come from two places: the pieces of a skills section (kept even when unknown)
and known skills named anywhere else (from ``resources/skill_aliases.yaml``). Aliases
fold to one canonical name ("k8s" → Kubernetes) so filters match across CVs.
"""

from __future__ import annotations

import bisect
import re
from collections import Counter

from cvrag_desktop.ingestion.fields.dates import find_date_ranges
from cvrag_desktop.ingestion.fields.entries import BULLET
from cvrag_desktop.ingestion.fields.identity.contact import EMAIL, URL
from cvrag_desktop.ingestion.layout.reading_order import TextLine
from cvrag_desktop.ingestion.layout.sections import CJK
from cvrag_desktop.text.keys import normalize_key
from cvrag_desktop.text.vocab.lexicon import load_lexicon
from cvrag_desktop.text.vocab.skills import AMBIGUOUS_SKILLS, canonical_skill

_SEP_CHARS = re.compile(r"[,;•·|]")
_SPLIT_LIST = re.compile(r"\s*[,;•·|\t]\s*")
_SPLIT = re.compile(r"\s*(?:[,;•·|\t]|\s/\s|\s-\s|\s–\s)\s*")
# "MS Office (Word, Excel)", "Programming (Python, C++)": a bracketed list inside one item. (Chinese and
# Japanese "，、" are not split: there they join the clauses of a sentence as often as list items.)
_BRACKET_LIST = re.compile(r"\s*\(([^()]*[,;][^()]*)\)\s*")
_CONJUNCTION = re.compile(r"\s+(?:and|und|y|et|e|i|en|og|och)\s+|\s*&\s*", re.IGNORECASE)
_LEVEL = re.compile(
    r"\(?\b\d+\+?\s*(?:yrs?|years?|años|jahre|ans|anni)\b\)?|\((?:basic|intermediate|advanced|expert|native|fluent|"
    r"c1|c2|b1|b2|a1|a2)\)|[★☆●○]+",
    re.IGNORECASE,
)


_PROFICIENCY = re.compile(
    r"^(?:(?:and|with|plus)\s+)?(?:(?:a\s+(?:tad\s+|little\s+)?bit\s+of|some|experienced?(?:\s+(?:in|with))?|experiente(?:\s+em)?|"
    r"expert(?:\s+in)?|proficient(?:\s+in)?|familiar(?:\s+with)?|good|strong|solid|basic|advanced|intermediate|"
    r"working)\s+)+", re.IGNORECASE)
_LEVEL_LABEL = re.compile(r"^(?:(?:working|basic|good|advanced|intermediate|expert|fluent|some)\s+knowledge|experienced|"
                          r"familiar|proficient|expert|advanced|intermediate|basic|beginner|fluent|native|[abc][12]|"
                          r"others?|misc(?:ellaneous)?)$",
                          re.IGNORECASE)
_FUNCTION_WORD = re.compile(r"^(?:along|but|which|with|and|or|the|a|an|for|to|of|in|on|as|by|from|using|including)\b"
                            r"|\b(?:which|that|who|and|or|with|of|the|to)$")


def _label_cell(cells: list[str]) -> bool:
    """"Web Development <tab> Django, React, Nginx": the first cell names the group, it is not a skill."""
    head = cells[0].strip() if cells else ""
    return len(cells) >= 2 and _canonical_piece(_tidy_piece(head)) is None and not re.search(r"[,;/|•·]", head) \
        and 2 <= len(head.split()) <= 5 and any(_SEP_CHARS.search(c) for c in cells[1:])


def _skill_pieces(text: str) -> list[str]:
    raw = [c for c in text.strip().split("\t") if c.strip()]
    if len(raw) >= 2 and all(BULLET.match(c.strip()) for c in raw):
        cells = [BULLET.sub("", c.strip()) for c in raw]  # "• A <tab> • B": a bulleted list in two columns
    else:
        cells = [c for c in BULLET.sub("", text.strip()).split("\t") if c.strip()]
        if _label_cell(cells):
            cells = cells[1:]
    out = []
    for cell in cells:
        colon = re.search(r"[:：]", cell)  # "：" ends a label in Chinese and Japanese text
        if colon:
            label, rest = cell[:colon.start()], cell[colon.end():]
            if len(label.split()) <= 4:
                cell = rest
        # the items of a bracketed list are items of the line, beside the name before the bracket
        cell = _BRACKET_LIST.sub(_bracket_items, cell).strip(" ,")
        cell = _LEVEL.sub(" ", cell)
        whole = _tidy_piece(cell)
        if _canonical_piece(whole):  # "CI / CD", "Kubernetes (K8s)": a known skill stays whole
            out.append(whole)
            continue
        pieces = _SPLIT.split(cell)
        if len(_SEP_CHARS.findall(cell)) >= 2:  # a list: split on its separators, then on " / " unless known
            pieces = [q for piece in _SPLIT_LIST.split(cell)
                      for q in ([piece] if _canonical_piece(_tidy_piece(piece)) else re.split(r"\s/\s", piece))]
        for piece in pieces:
            for p in _split_conjunction(_tidy_piece(piece)):
                if 1 <= len(p) <= 40 and len(p.split()) <= 5 and re.search(r"[^\W\d_]", p):
                    out.append(p)
    return out


def _bracket_items(m: re.Match) -> str:
    """A bracketed list's items as items of the line; versions ("Python (2.7, 3.x)") are dropped."""
    inner = m.group(1)
    return " " if re.fullmatch(r"[\d.xX+,;\s/]+", inner) else f", {inner}, "


def _tidy_piece(piece: str) -> str:
    """Trim spaces, dots and brackets a list leaves around a skill, keeping balanced ones."""
    p = piece.strip(" .[]")
    if p.endswith(")") and "(" not in p:
        p = p[:-1]
    if p.startswith("(") and ")" not in p:
        p = p[1:]
    if p.startswith("(") and p.endswith(")"):
        p = p[1:-1]
    return p.strip()


def _split_conjunction(piece: str) -> list[str]:
    """Split "Python and Java" or "Python and data pipelines"; keep "Recrutamento e seleção" whole.

    A conjunction inside one skill's name is common (payroll, "Paghe e contributi",
    "Health and Safety"), so the piece is split only when a part is a known skill.
    """
    parts = [p.strip() for p in _CONJUNCTION.split(piece) if p.strip()]
    if len(parts) > 1 and any(_canonical_piece(p) for p in parts):
        return parts
    return [piece]


def _logical_lines(lines: list[TextLine], idx: list[int]) -> list[tuple[str, int]]:
    """Skills-section text as logical lines: an inline list wrapped over several lines is re-joined."""
    inline = sum(1 for i in idx if len(_SEP_CHARS.findall(lines[i].text)) >= 2)
    if inline < max(1, len(idx) // 3):
        return _join_wrapped_items(lines, idx)
    out: list[tuple[str, int]] = []
    for i in idx:
        text = lines[i].text.strip()
        if out and not out[-1][0].rstrip().endswith(tuple(",;•·|")) and not BULLET.match(text) \
                and ":" not in text[:25] and "\t" not in text:
            out[-1] = (f"{out[-1][0]} {text}", out[-1][1])
        else:
            out.append((text, i))
    return out


def _join_wrapped_items(lines: list[TextLine], idx: list[int]) -> list[tuple[str, int]]:
    """One skill per line: re-join an item a narrow column wrapped ("Necesidades educativas / especiales").

    A line continues the previous one when it starts in lower case, sits right below it
    in the same column, and neither line is a known skill on its own ("pandas" is one).
    """
    out: list[tuple[str, int]] = []
    prev: TextLine | None = None
    for i in idx:
        ln = lines[i]
        text = ln.text.strip()
        if out and prev is not None and text[:1].islower() and "\t" not in text and "\t" not in out[-1][0] \
                and ln.column == prev.column and ln.page == prev.page and 0 <= ln.y0 - prev.y1 < 0.6 * prev.height \
                and not out[-1][0].rstrip().endswith(tuple(",;•·|")) and not BULLET.match(text) \
                and not _canonical_piece(text) and not _canonical_piece(out[-1][0]):
            out[-1] = (f"{out[-1][0]} {text}", out[-1][1])
        else:
            out.append((text, i))
        prev = ln
    return out


def _canonical_piece(piece: str) -> str | None:
    """Canonical name of a piece, also for "Kubernetes (K8s)" or "Python 3.11"."""
    canon = canonical_skill(piece)
    if canon is None:
        bare = re.sub(r"\s*\([^)]*\)\s*$|\s+\d+(?:\.\d+)*\+?$", "", piece).strip()
        if bare and bare != piece:
            canon = canonical_skill(bare)
    return canon


_RATING = re.compile(r"\s*(?:\d{1,3}\s*%|\d(?:[.,]\d)?\s*/\s*\d+|[★☆⋆●○■□◆◇♥]+)\s*$")


def _clean_item(piece: str) -> list[str]:
    """A skill item without rating decorations ("⋆⋆ C", "Linux 90 %", "♥Java"), and two known skills a
    lost separator merged ("Javascript OCaml", "Scikit-learn NumPy") split apart."""
    p = re.sub(r"^[★☆⋆●○■□◆◇♥•·▪◦‣]+\s*", "", _RATING.sub("", piece.strip())).strip()
    if _canonical_piece(p) is None:
        p = _PROFICIENCY.sub("", p).strip()  # "Experienced Go", "a little bit of Lisp"
    if not p or _LEVEL_LABEL.match(p):
        return []  # "Working knowledge", "Others": a group's label
    if _canonical_piece(p) is None and _FUNCTION_WORD.search(p):
        return []  # "along with Jenkins", "tools which": a piece of a sentence
    if re.search(r"\b[xX]{3,}\b|\b[zZ]{3,}\b", p):
        return []  # "xxx", "categoría 1 XXX": a template's placeholder, not a skill
    if _canonical_piece(p) is None and normalize_key(p).replace("-", " ") in _CATEGORY_WORDS:
        return []  # "Back End", "Databases", "Cloud": a group's label printed among its items
    if 2 <= len(p.split()) <= 6 and _canonical_piece(p) is None:
        return _split_merged(p) or [p]
    return [p]


# Group labels of skills lists: never a skill themselves, dropped between merged items ("Jenkins Back-end Django").
_CATEGORY_WORDS = frozenset({
    "back end", "backend", "front end", "frontend", "full stack", "programming", "programming languages", "languages",
    "frameworks", "libraries", "databases", "database", "tools", "tooling", "web", "mobile", "cloud", "ops", "platforms",
    "operating systems", "operating system", "query languages", "points forts", "technologies", "infrastructure",
    "data", "devtools", "os", "soft skills", "hard skills", "outils", "langages", "bases de donnees"})


def _odd_token(word: str) -> bool:
    """A word shaped like a tool's name the lexicon may not know: "SystemVerilog", "dplyr", "C++17", "k9s"."""
    return bool((re.search(r"^.+[A-Z]", word) and re.search(r"[a-z]", word)) or re.search(r"[\d.+#/]", word)
                or (word.islower() and word.isalpha() and len(word) >= 3))


def _split_merged(piece: str) -> list[str] | None:
    """Known skills a lost separator merged ("Jenkins Back-end Django", "CI/CD VirtualBox") split apart.

    Greedy longest match of known skills over the words; group labels between them are dropped;
    one unknown word is kept when it is shaped like a tool's name. None when that does not
    explain the whole piece with at least two skills.
    """
    words = piece.split()
    out: list[str] = []
    unknown = known = 0
    i = 0
    while i < len(words):
        for n in range(min(4, len(words) - i), 0, -1):
            chunk = " ".join(words[i:i + n])
            if _canonical_piece(chunk):
                out.append(chunk)
                known += 1
                i += n
                break
        else:
            w = words[i]
            if normalize_key(w).replace("-", " ") in _CATEGORY_WORDS:
                i += 1
                continue
            if not _odd_token(w):
                return None
            out.append(w)
            unknown += 1
            i += 1
    return out if len(out) >= 2 and known >= 1 and unknown <= 1 else None


def _plausible_skill(piece: str) -> bool:
    """An unknown item can be a skill, but not a spoken language, a sentence or a long phrase."""
    lex = load_lexicon()
    m = lex.language_re.match(piece)
    if m and re.fullmatch(r"\s*(?:[(:\-–,].*)?", piece[m.end():]):
        return False  # "English (native speaker)", "Anglais": a language
    if re.search(r"[\u3400-\u9fff]", piece):
        return len(piece) <= 15 and not re.search(r"[。，；：]", piece)
    return len(piece.split()) <= 5


def extract_skills(lines: list[TextLine], skill_idx: list[int], other_idx: list[int]) -> list[tuple[str, int]]:
    """Canonical skills with the line each was read from: skills section first, then mentions."""
    lex = load_lexicon()
    found: dict[str, int] = {}
    for text, i in _logical_lines(lines, skill_idx):
        if len(text.split()) >= 14 and len(_SEP_CHARS.findall(text)) < 3:  # prose: only known skills
            for m in lex.skill_pattern.finditer(text):
                found.setdefault(canonical_skill(m.group(0)) or m.group(0), i)
            continue
        for raw in _skill_pieces(text):
            for piece in _clean_item(raw):
                canon = _canonical_piece(piece)
                if canon is None and (normalize_key(piece) in lex.headings or not _plausible_skill(piece)):
                    continue
                found.setdefault(canon or piece, i)
        if CJK.search(text):  # no spaces to split on ("熟练使用SpringBoot/Django等"): known skills in it count
            for m in lex.skill_pattern.finditer(text):
                canon = canonical_skill(m.group(0))
                if canon and normalize_key(m.group(0)) not in AMBIGUOUS_SKILLS:
                    found.setdefault(canon, i)
    counts: Counter[str] = Counter()
    first: dict[str, int] = {}
    # one running text, so a skill wrapped onto the next line ("Tailwind / CSS") is read whole
    starts, parts, pos = [], [], 0
    for i in other_idx:
        starts.append(pos)
        parts.append(URL.sub(" ", EMAIL.sub(" ", lines[i].text)))
        pos += len(parts[-1]) + 1
    for m in lex.skill_pattern.finditer(" ".join(parts)):
        i = other_idx[bisect.bisect_right(starts, m.start()) - 1]
        canon = canonical_skill(m.group(0))
        # an ordinary word ("go", "spring") is not a skill in running text; its unambiguous alias ("Golang") is
        if canon is None or normalize_key(m.group(0)) in AMBIGUOUS_SKILLS:
            continue
        if m.group(0).islower() and len(m.group(0)) <= 3:
            continue  # "ml", "ts" in running text are too ambiguous
        counts[canon] += 1
        first.setdefault(canon, i)
    for canon, _ in counts.most_common():
        if canon not in found:
            found[canon] = first[canon]
    return list(found.items())[:60]


# "Languages: …", "Languages<TAB>…", "语言：…": a line that lists spoken languages outside their own section
_LANGUAGE_LABEL = re.compile(r"^\s*[•·▪●◦\-–]?\s*(?:languages?|sprachen|sprachkenntnisse|idiomas?|langues?|lingue|"
                             r"línguas|linguas|talen|语言|語言|外语|言語|外国語)\s*(?:[:：]|\t)", re.I)
_LEVEL_TAIL = re.compile(r"\s*(?:[(:\-–—,]\s*.*)?$")


def _alone_a_language(text: str) -> bool:
    """A line that is only a spoken language, perhaps with its level ("Anglais", "German (C1)")."""
    lex = load_lexicon()
    m = lex.language_re.match(text.strip())
    return bool(m) and _LEVEL_TAIL.fullmatch(text.strip()[m.end():]) is not None and len(text.split()) <= 6


def extract_languages(lines: list[TextLine], lang_idx: list[int], all_idx: list[int]) -> list[tuple[str, int]]:
    """Spoken languages (English names) from the languages section or a "Languages:" line."""
    lex = load_lexicon()
    out: dict[str, int] = {}
    scan = list(lang_idx)
    for i in all_idx:
        text = lines[i].text
        if _LANGUAGE_LABEL.match(text) or _alone_a_language(text):
            scan.append(i)
    for i in scan:
        for m in lex.language_re.finditer(lines[i].text):
            canon = lex.languages.get(normalize_key(m.group(0)))
            if canon:
                out.setdefault(canon, i)
    return list(out.items())


def extract_certifications(lines: list[TextLine], cert_idx: list[int], *,
                           skip_languages: bool = False) -> list[tuple[str, int]]:
    """One certification per line of the certifications section (dates and bullets removed).

    ``skip_languages`` drops cells naming a spoken language (a languages column printed beside).
    """
    lex = load_lexicon()
    out: list[tuple[str, int]] = []
    for i in cert_idx:
        text = BULLET.sub("", lines[i].text)
        for r in find_date_ranges(text)[::-1]:
            text = text[: r.span[0]] + text[r.span[1]:]
        text = re.sub(r"\(\s*\)|\[\s*\]", "", text)  # "Deep Learning (Coursera) (2023)": the year's brackets go too
        cells = [c.strip(" ,;|–—-") for c in text.split("\t") if c.strip(" ,;|–—-")]
        if skip_languages:
            cells = [c for c in cells if not lex.language_re.match(c)]
        if not cells:
            continue
        name = max(cells, key=len)
        if 3 <= len(name) <= 120 and re.search(r"[^\W\d_]{2,}", name):
            out.append((name, i))
    return out[:40]
