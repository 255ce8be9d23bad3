"""Name labels of personal-data forms and tables: which cell holds the name, or its given and family parts.

"Name: Jan Kowalski", "Nome completo | Rui Almeida", "氏名 山田 太郎" hold the whole name;
"Vorname | Anna" + "Nachname | Schmidt", "Nom : DUPONT" + "Prénom : Marie", "Imię" +
"Nazwisko", "Voornaam" + "Achternaam", 姓 + 名 hold its parts. A word that is the whole name
alone ("Nom", "Nombre", "Nome", "Naam", "Name") is one part when its partner label is there
(French "Nom" + "Prénom": the family name; Italian "Nome" + "Cognome": the given name). The
value is on the label's line, in the next cell, or on the next line; parts are joined in the
order the form prints them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from cvrag_desktop.ingestion.fields.identity.contact import split_cells

FULL, GIVEN, FAMILY, EITHER = "full", "given", "family", "either"

_LABELS: tuple[tuple[str, str], ...] = (
    (FULL, r"(?:first\s+names?|vornamen?|pr[ée]noms?|nachnamen?|surnames?|noms?|names?)\s*(?:\([sn]\))?\s*/\s*"
           r"(?:first\s+names?|vornamen?|pr[ée]noms?|nachnamen?|surnames?|noms?)\s*(?:\([sn]\))?|full\s+name\s*/\s*surname|surname\s*/\s*name|first\s+name\s*/\s*surname|full\s+name|"
           r"first\s+and\s+last\s+name|name\s+and\s+surname|nombre\s+(?:y\s+apellidos|completo)|apellidos\s*,?\s*y?\s*nombre|"
           r"nom\s+(?:complet|et\s+pr[ée]nom)|pr[ée]nom\s+et\s+nom|nome\s+(?:completo|e\s+cognome)|cognome\s+e\s+nome|"
           r"vor-?\s*und\s+(?:zu|nach)name|name\s*,\s*vorname|nachname\s*,\s*vorname|vollst[äa]ndiger\s+name|"
           r"volledige\s+naam|voor-?\s*en\s+achternaam|imi[eę]\s+i\s+nazwisko|nazwisko\s+i\s+imi[eę]|"
           r"氏\s*名|姓\s*名|名\s*前|お名前"),
    (GIVEN, r"first\s+names?|given\s+names?|forenames?|vornamen?|pr[ée]noms?|nome\s+pr[óo]prio|primeiro\s+nome|"
            r"voorna(?:am|men)|roepnaam|imi[eę]|imiona|f[öo]rnamn|fornavn|名"),
    (FAMILY, r"last\s+name|family\s+name|surnames?|nachname|familienname|nom\s+de\s+famille|apellidos?|"
             r"primer\s+apellido|sobrenomes?|apelidos?|cognome|achternaam|nazwisko|efternamn|etternavn|efternavn|姓"),
    (EITHER, r"name|nom|nombre|nome|naam"),
)
_LABEL = re.compile("|".join(f"(?P<{kind}>{pat})" for kind, pat in _LABELS), re.IGNORECASE)
_CELL = re.compile(rf"^\s*(?P<label>{'|'.join(pat for _, pat in _LABELS)})(?:\s*\(\s*s\s*\))?(?![^\W\d_])\s*[:：]?\s*"
                   r"(?P<rest>.*)$", re.IGNORECASE)
_CUE = re.compile(r"nam|nom|naam|imi|nazw|vorn|pr[ée]n|apell|sobren|apelid|cogn|姓|名|氏", re.IGNORECASE)
_WINDOW = 6  # a given and a family label further apart than this many lines are two forms, not one name


@dataclass(frozen=True)
class LabelledPart:
    """A value printed under a name label: its kind (full, given, family, either), text, its line and the label's."""

    kind: str
    value: str
    line: int
    label_line: int


def _kind(label: str) -> str:
    m = _LABEL.fullmatch(label.strip())
    return next((k for k, v in m.groupdict().items() if v), EITHER) if m else ""


def label_parts(texts: list[str], start: int = 0) -> list[LabelledPart]:
    """Every name label of ``texts`` (the lines, in reading order, from line index ``start``) with its value.

    Each line is cut into cells by ``split`` (tab / wide-gap cells); the value is the label cell's rest, the
    next cell, or the next line's first cell.
    """
    out: list[LabelledPart] = []
    for n, text in enumerate(texts):
        if not _CUE.search(text):
            continue  # cheap guard: most lines carry no name label
        cells = split_cells(text)
        for k, cell in enumerate(cells):
            m = _CELL.match(cell)
            if not m:
                continue
            kind = _kind(m.group("label"))
            if not kind:
                continue
            rest = m.group("rest").strip()
            if rest:
                out.append(LabelledPart(kind, rest, start + n, start + n))
            elif k + 1 < len(cells):
                out.append(LabelledPart(kind, cells[k + 1], start + n, start + n))
            elif n + 1 < len(texts):
                nxt = split_cells(texts[n + 1])
                if nxt and not _CELL.match(nxt[0]):
                    out.append(LabelledPart(kind, nxt[0], start + n + 1, start + n))
            break
    return out


@dataclass(frozen=True)
class LabelledName:
    """A name read from labels: the value, its first value line and label line, and the parts it joins."""

    value: str
    line: int
    label_line: int
    parts: tuple[str, ...]


def assemble(parts: list[LabelledPart]) -> list[LabelledName]:
    """Candidate names from labelled parts, best first: a given and a family part joined in printed order
    (a pair says more than a lone "Name" cell, often the surname alone), then whole-name values."""
    pairs: list[LabelledName] = []
    full: list[LabelledName] = []
    for i, p in enumerate(parts):
        near = [q for q in parts if q is not p and abs(q.line - p.line) <= _WINDOW]
        kinds = {q.kind for q in near}
        kind = p.kind
        if kind == EITHER:
            kind = FAMILY if GIVEN in kinds else GIVEN if FAMILY in kinds else FULL
        if kind == FULL:
            full.append(LabelledName(p.value, p.line, p.label_line, (p.value,)))
            continue
        want = FAMILY if kind == GIVEN else GIVEN
        partner = next((q for q in near if q.kind in (want, EITHER)), None)
        if partner is None or parts.index(partner) < i:
            continue  # the pair is found from its first part
        pairs.append(LabelledName(f"{p.value} {partner.value}", min(p.line, partner.line),
                                  min(p.label_line, partner.label_line), (p.value, partner.value)))
    return pairs + full
