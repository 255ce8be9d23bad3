"""The headline: the tagline a CV prints under (or beside) the name ("Senior Software Engineer").

Read after the name (``identity/names.py``): the next cell or lines, skipping contact rows,
form labels, section words, places and another spelling of the name; a headline wrapped
after a function word is joined with its next line.
"""

from __future__ import annotations

import re

from cvrag_desktop.ingestion.fields.identity.contact import EMAIL, PHONE, URL, Hit, split_cells
from cvrag_desktop.ingestion.fields.identity.names import LABEL_WORDS, name_shaped
from cvrag_desktop.ingestion.read.extracted import ExtractedDoc
from cvrag_desktop.ingestion.read.textclean import FUNCTION_WORDS
from cvrag_desktop.text.keys import heading_key, normalize_key
from cvrag_desktop.text.vocab.lexicon import load_lexicon
from cvrag_desktop.text.vocab.places import is_place_name


def _squeeze(text: str) -> str:
    """Letters and digits only: "JoãoPereira" printed without its space still holds "João Pereira"."""
    return re.sub(r"\W", "", text)


def find_headline(doc: ExtractedDoc, name: Hit | None) -> Hit | None:
    """The tagline under (or beside) the name, e.g. "Senior Software Engineer"."""
    if name is None:
        return None
    lex = load_lexicon()
    if _squeeze(name.value) not in _squeeze(doc.lines[name.line].text) and name.line + 1 < len(doc.lines) \
            and _squeeze(doc.lines[name.line + 1].text) in _squeeze(name.value):  # wrapped name: skip its second line
        name = Hit(name.value, name.line + 1)
    cells = split_cells(doc.lines[name.line].text)
    after = cells[cells.index(name.value) + 1:] if name.value in cells else []
    if not after:  # "Sophie Robinson, Machine Learning Engineer": the headline after the name in its cell
        after = [rest for c in cells if c.startswith(name.value)
                 and (rest := re.sub(r"^[\s,，|·\-–—]+", "", c[len(name.value):])) and rest != c[len(name.value):]][:1]
    candidates: list[tuple[str, int]] = [(c, name.line) for c in after[:1]]
    for j in range(name.line + 1, min(name.line + 3, len(doc.lines))):
        first = split_cells(doc.lines[j].text)
        if first:
            candidates.append((first[0], j))
    for text, j in candidates:
        t = text.strip()
        if t.startswith(">"):  # a Markdown blockquote left by a converter: "> PhD candidate > > PhD candidate at …"
            t = next((q.strip() for q in t.split(">") if q.strip()), "")
        if not 3 <= len(t) <= 90 or EMAIL.search(t) or URL.search(t) or PHONE.search(t):
            continue
        if t.endswith(":") or (" " not in t and t.islower()):
            continue  # a label or a profile handle
        row = doc.lines[j].text
        if j != name.line and doc.lines[j].x0 > doc.lines[name.line].x1 + 5:
            continue  # it starts right of where the name ends: a logo or a box beside the header, not under the name
        if t != row.strip() and (EMAIL.search(row) or PHONE.search(row) or URL.search(row)):
            continue  # "Email <tab> ana@…": the label of a contact row
        if heading_key(t) in lex.headings and not _not_a_headline(t):
            break  # a section heading: what follows is that section's text, not a tagline under the name
        if heading_key(t) in lex.headings or t.startswith(("“", '"')):
            continue
        if _not_a_headline(t):
            continue
        if lex.title_re.search(t) or (len(t.split()) <= 8 and not re.search(r"\d", t)):
            if re.match(r"^[A-ZÀ-Ý][\w .'-]+,\s*[A-ZÀ-Ý][\w .'-]+$", t) and not lex.title_re.search(t):
                continue  # a place, not a headline
            return Hit(_unwrap_headline(doc, t, j), j)
    return None


def _unwrap_headline(doc: ExtractedDoc, text: str, j: int) -> str:
    """A headline cut after a conjunction or preposition ("Builder of Platforms and") goes on with the next line."""
    words = text.split()
    if len(words) < 2 or words[-1].lower() not in FUNCTION_WORDS or j + 1 >= len(doc.lines):
        return text
    ln, nxt = doc.lines[j], doc.lines[j + 1]
    tail = nxt.text.strip()
    if nxt.page != ln.page or abs(nxt.size - ln.size) > 0.5 or nxt.bold != ln.bold or "\t" in tail \
            or not 1 <= len(tail.split()) <= 6 or EMAIL.search(tail) or PHONE.search(tail) or URL.search(tail):
        return text
    return f"{text} {tail}"


# form labels and section words that sit under a name in form-like CVs (履歴書, Europass, "Sobre")
_FORM_LABELS = frozenset({"生年月日", "ふりがな", "フリガナ", "氏名", "住所", "現住所", "連絡先", "電話", "学歴", "職歴",
                          "性別", "年齢", "出生年月", "籍贯", "民族", "政治面貌", "联系方式", "个人信息", "基本信息",
                          "sobre", "sobre mim", "acerca de", "a propos", "uber mich", "about", "about me", "profile",
                          "perfil", "profil", "personal information", "personal details", "datos personales",
                          "dados pessoais", "informations personnelles", "persönliche daten", "persoenliche daten"})


def _not_a_headline(text: str) -> bool:
    """A form label, a section word, another spelling of the name, or a place is not the candidate's headline."""
    key = normalize_key(text).strip(" :：")
    if key in _FORM_LABELS or re.sub(r"[\s\u3000]", "", text) in _FORM_LABELS:
        return True
    if {normalize_key(w).strip(".:") for w in text.split()} & LABEL_WORDS and len(text.split()) <= 3 \
            and not load_lexicon().title_re.search(text):
        return True  # "Address", "Home Address" (but "Mobile Tech Lead" is a title)
    return name_shaped(text) or is_place_name(text)  # "Karl Heinrich Marx" under "卡尔・马克思"; "Lyon, France"
