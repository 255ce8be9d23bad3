"""The candidate's name: which short, name-shaped piece of page one names the person.

The name is chosen among short, name-shaped pieces of the first page, preferring the
largest type near the top; pieces that are job titles, headings, places, skills or form
labels are excluded, and degrees and credentials printed after a name are cut off. Cues
for the hard cases: a name label, a one-word name in large type, a name split over two
lines or two columns, a name typed in lower case that the e-mail address confirms.
"""

from __future__ import annotations

import re
from functools import lru_cache
from itertools import pairwise

from cvrag_desktop.ingestion.fields.dates import find_date_ranges
from cvrag_desktop.ingestion.fields.identity.contact import EMAIL, Hit, split_cells
from cvrag_desktop.ingestion.fields.identity.name_labels import assemble, label_parts
from cvrag_desktop.ingestion.fields.identity.namelike import cjk_name_shape, known_name_share, name_like
from cvrag_desktop.ingestion.layout.sections import body_size, lexicon_section
from cvrag_desktop.ingestion.layout.textline import same_row
from cvrag_desktop.ingestion.read.extracted import ExtractedDoc
from cvrag_desktop.text.keys import heading_key, normalize_key
from cvrag_desktop.text.vocab.lexicon import load_lexicon
from cvrag_desktop.text.vocab.person_names import is_given_name, is_surname
from cvrag_desktop.text.vocab.places import country_in_text, is_place_name
from cvrag_desktop.text.vocab.skills import canonical_skill

# words of form labels ("Home Address", "Personal Email", "Sexo Masculino"): such a cell is never a name
LABEL_WORDS = frozenset({
    "address", "email", "e-mail", "phone", "mobile", "telephone", "fax", "website", "nationality", "gender", "sex",
    "birth", "born", "citizenship", "marital", "status", "postal", "code", "city", "country", "location", "personal",
    "professional", "office", "home", "work", "adresse", "anschrift", "telefon", "handy", "geburtsdatum",
    "staatsangehorigkeit", "familienstand", "geschlecht", "wohnort", "direccion", "telefono", "movil", "correo",
    "nacionalidad", "sexo", "localidad", "provincia", "morada", "localidade", "telemovel", "nacionalidade",
    "naturalidade", "codigo", "indirizzo", "cellulare", "nazionalita", "sesso", "portable", "naissance",
    "nationalite", "situation", "permis", "driving", "licence", "license"})
# post-nominals printed after a name ("Mara Quell, Ph.D.", "Ivo Brandt M.Sc.")
_POST_NOMINAL = re.compile(r"(?:,?\s+(?:ph\.?\s?d\.?|m\.?\s?sc\.?|b\.?\s?sc\.?|m\.?\s?a\.?|b\.?\s?a\.?|mba|m\.?\s?eng\.?|"
                           r"dipl\.?-?\s?ing\.?|md|cpa|pmp|cfa|jr\.?|sr\.?|ii|iii))+\s*$", re.IGNORECASE)
# post-nominals written without dots ("Kathrin Rogner MSc", "John Smith MBA"): matched case-sensitively so that a
# surname ("Li Ma", "Anna Do") is never cut; in an all-capitals line only the three-letter-or-longer ones count
_BARE_POST_NOMINALS = frozenset({
    "MSc", "MA", "BA", "BSc", "BEng", "MEng", "MPhil", "DPhil", "PhD", "MBA", "MD", "DO", "DDS", "DMD", "PharmD",
    "EdD", "JD", "LLB", "LLM", "MPH", "MSW", "MFA", "CPA", "CFA", "ACCA", "ACA", "FCA", "PMP", "CISSP", "CISA",
    "RN", "NP", "PE", "PEng", "Esq", "FRCS", "MRCP", "MBBS", "Jr", "Sr", "II", "III"})
NAME_WORD = re.compile(r"^[^\W\d_][^\W\d_'’.\-]*(?:[.'’\-][^\W\d_]+)*\.?$")
CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")


# lower-case name particles ("Valentina das Neves", "Ludwig van der Berg", "Luiz da Cunha da Luz")
NAME_PARTICLES = frozenset({"de", "del", "della", "delle", "dei", "degli", "la", "le", "van", "von", "der", "den", "ten",
                        "ter", "zu", "da", "das", "do", "dos", "du", "des", "di", "bin", "al", "y"})
_LEVEL_WORDS = re.compile(r"\b(?:advanced|intermediate|basic|fluent|native|proficient|expert)\b", re.IGNORECASE)


def clean_name(cell: str, split_joined: bool = True) -> str:
    """A name cell without decoration, post-nominals or a missing space (". JoãoPereira ." → "João Pereira").

    ``split_joined`` is for large type only: in body text "BrandSoft" is a brand, not two names.
    """
    s = _without_leading_label(strip_post_nominals(cell.strip(" .·•|-–—*")))
    words = s.split()
    if len(words) >= 4 and len(words) % 2 == 0 and words[:len(words) // 2] == words[len(words) // 2:]:
        s = " ".join(words[:len(words) // 2])  # "Ana Ruiz Ana Ruiz": a theme printing the name twice in one row
    if split_joined and " " not in s and not CJK.search(s):
        s = re.sub(r"(?<=[A-ZÀ-Þ][a-zà-ÿ]{2})(?=[A-ZÀ-Þ])|(?<=[A-ZÀ-Þ][a-zà-ÿ]{3})(?=[A-ZÀ-Þ])|"
                   r"(?<=[a-zà-ÿ]{4})(?=[A-ZÀ-Þ])", " ", s)  # "JoãoPereira" splits; "McDonald", "DeAndre" do not
    return s


def _without_leading_label(s: str) -> str:
    """A name printed on the row of a label in capitals ("PERSONAL DETAILS Ben Miller", "ANGABEN ZUR PERSON
    Erhardt Wagner": a Europass label column beside the value) without the label; a surname in capitals
    ("DUPONT Marie") is no section heading and stays."""
    words = s.split()
    k = 0
    while k < len(words) and len(words[k]) >= 2 and words[k].isupper():
        k += 1
    rest = words[k:]
    if k > 0 and len(rest) >= 2 and not any(w.isupper() for w in rest) and lexicon_section(" ".join(words[:k])):
        return " ".join(rest)
    return s


# credentials printed after names in health care, finance, law, HR, engineering and project work
_CREDENTIALS = frozenset({
    "RN", "BSN", "MSN", "DNP", "APRN", "FNP", "FNP-BC", "NP", "LPN", "LVN", "CNA", "CRNA", "CCRN", "CEN", "CNL",
    "NE-BC", "RN-BC", "CPN", "OCN", "PHN", "MD", "DO", "PHD", "DPHIL", "MBBS", "DDS", "DMD", "PHARMD", "DPT", "OTR",
    "OTR/L", "PA-C", "RD", "LCSW", "LMFT", "LPC", "PSYD", "EDD", "MED", "MA", "MS", "MSC", "BA", "BS", "BSC", "MBA",
    "MPH", "MPA", "MSW", "MFA", "MENG", "BENG", "JD", "LLB", "LLM", "ESQ", "CPA", "CMA", "CIA", "CFA", "CFP", "ACCA",
    "ACA", "FCA", "CIMA", "CGMA", "EA", "CISA", "CISSP", "CISM", "PMP", "CSM", "PE", "PENG", "EIT", "RA", "SHRM-CP",
    "SHRM-SCP", "PHR", "SPHR", "CIPD", "FRCS", "MRCP", "JR", "SR", "II", "III", "IV"})
_CREDENTIAL_SPLIT = re.compile(r"\s*,\s*|\s+[-–—|]\s+")
_CREDENTIAL_TOKEN = re.compile(r"^(?:[A-Z][A-Za-z]?\.?){1,5}(?:-[A-Z]{1,4})?$|^[A-Z]{2,6}(?:-[A-Z]{1,4})?$")


def _credential(piece: str) -> bool:
    """A credential printed after a name ("RN", "BSN", "CCRN", "NE-BC", "Ph.D.", "MSc"): never a given name."""
    p = piece.strip(" .")
    if not p or " " in p or len(p) > 10:
        return False
    bare = p.replace(".", "").upper()
    if p in _BARE_POST_NOMINALS or bare in _CREDENTIALS:
        return True
    # an unknown short token counts only when written with dots ("M.S.N."): "CA", "USA" are places
    return "." in p and bool(_CREDENTIAL_TOKEN.match(p)) and sum(c.isupper() for c in p) >= 2


def strip_post_nominals(text: str) -> str:
    """A name without the degrees and credentials printed after it.

    "Jane Doe, PhD", "Ivo Brandt M.Sc." and "Lena Hartwig MSc" all give the bare name; a
    name that would be left with fewer than two words keeps its last word ("Li Ma").
    """
    s = text.strip()
    parts = _CREDENTIAL_SPLIT.split(s)
    if len(parts) > 1 and len(parts[0].split()) >= 2 and all(_credential(p) for p in parts[1:]) \
            and not is_place_name(parts[0]):
        s = parts[0].strip()  # "TAMSIN OKORO, RN, BSN", "Idris Vane - CPA", "Mabel Quist, NE-BC"
    if "." in s or "," in s:
        s = _POST_NOMINAL.sub("", s).strip(" ,")
    words = s.replace(",", " ").split()
    caps = all(w.isupper() for w in words if any(c.isalpha() for c in w))
    while len(words) > 2 and words[-1].strip(",") in _BARE_POST_NOMINALS \
            and not (caps and len(words[-1].strip(",")) < 3):
        words.pop()
        s = s[:s.rstrip().rfind(" ")].rstrip(" ,") if " " in s.rstrip() else s
        if "." in s or "," in s:
            s = _POST_NOMINAL.sub("", s).strip(" ,")
        words = s.replace(",", " ").split()
    while len(words) > 2 and caps and words[-1].capitalize() in {"Msc", "Phd", "Mba"}:
        words.pop()
        s = s[:s.rstrip().rfind(" ")].rstrip(" ,")
    return s


@lru_cache(maxsize=16384)
def name_shaped(cell: str) -> bool:
    """Could this cell be a person's name: two to five capitalised name words that no vocabulary claims."""
    lex = load_lexicon()
    if len(cell) > 40 or re.search(r"[@\d/:()]|https?|www", cell):
        return False
    key = normalize_key(cell)
    if key in lex.name_stopwords:
        return False
    if heading_key(cell) in lex.headings:
        return False
    if CJK.search(cell):
        compact = re.sub(r"[\s\u3000・·•]", "", cell)
        return 2 <= len(compact) <= 12 and not lex.title_re.search(cell) and not lex.institution_re.search(cell) \
            and name_like(cell)
    words = cell.split()
    if not LABEL_WORDS.isdisjoint(key.replace(".", " ").replace(":", " ").split()):
        return False  # a form label ("Home Address", "Sexo Masculino")
    capitalised = [w for w in words if w not in NAME_PARTICLES]  # "Das" is a surname, "das" a particle
    if not 2 <= len(capitalised) <= 5 or len(words) > 7:
        return False
    if not all(NAME_WORD.match(w) for w in words):
        return False
    if not all(w[0].isupper() for w in capitalised) or words[0] in NAME_PARTICLES:
        return False
    if lex.title_re.search(cell) or lex.company_re.search(cell) or lex.institution_re.search(cell):
        return False
    if (cell.endswith(".") and len(words[-1]) > 4) or canonical_skill(cell) or _LEVEL_WORDS.search(cell):
        return False  # "Usability Testing.", "API Testing", "Advanced Excel": not a person
    if lex.degree_re.search(cell) or lex.language_re.fullmatch(cell.strip()) \
            or (is_place_name(cell) and not _gazetteer_person(words)):
        return False
    return name_like(cell)  # at least one word a person's: a gazetteer name or a word no vocabulary knows


# first words of place names that are also given names elsewhere ("San Diego", "Santa Clara", "Port Louis")
_PLACE_PREFIXES = frozenset({"san", "santa", "santo", "sao", "saint", "st", "sankt", "port", "fort", "mount", "new", "north",
                             "south", "east", "west", "los", "las", "el", "la", "le", "les", "bad", "nova", "novo", "costa",
                             "puerto", "porto", "villa", "ciudad", "cape", "lake", "great", "little", "upper", "lower"})


def _gazetteer_person(words: list[str]) -> bool:
    """"Timoteo Santiago", "Adélaïde Torres": a given name, then a surname, both in the gazetteers — a person
    whose names are also places."""
    if not (2 <= len(words) <= 4 and normalize_key(words[0]) not in _PLACE_PREFIXES and is_given_name(words[0])
            and is_surname(words[-1])) or country_in_text(" ".join(words)):
        return False  # "Sierra Leone" names a country
    # each word a place of its own, not one place of several words ("Hong Kong", "Santa Clara")
    return not any(is_place_name(f"{a} {b}") and not (is_place_name(a) and is_place_name(b))
                   for a, b in pairwise(words))


def _surname_is_a_word(cell: str) -> bool:
    """"Diogo Andrade Sales", "Adam Grupa": a given name first and one later word that only the vocabulary
    objects to (a title, employer or school word) — a person whose surname is also a word."""
    lex = load_lexicon()
    words = cell.split()
    if not 2 <= len(words) <= 4 or not is_given_name(words[0]):
        return False
    flagged = [n for n, w in enumerate(words) if n and (lex.title_re.search(w) or lex.company_re.search(w)
                                                         or lex.institution_re.search(w))]
    if len(flagged) != 1:
        return False
    return name_shaped(" ".join("Xander" if n == flagged[0] else w for n, w in enumerate(words)))


def find_name(doc: ExtractedDoc) -> Hit | None:
    """The candidate's name: the largest name-shaped piece near the top of page one."""
    lines = doc.lines
    body = body_size(lines)
    best: tuple[float, Hit] | None = None
    first_page = [i for i, ln in enumerate(lines) if ln.page == 0][:60]
    labelled = _labelled_name(lines, first_page)
    for rank, i in enumerate(first_page):
        ln = lines[i]
        if labelled and i == labelled[2]:
            if best is not None and lines[best[1].line].size >= 1.5 * body and \
                    set(normalize_key(best[1].value).split()) <= set(normalize_key(labelled[0]).split()):
                return best[1]  # the name in large type ("Rui Almeida") over the full legal name of a form
            return Hit(labelled[0], labelled[1])
        for pos, raw in enumerate(split_cells(ln.text)):
            cell = clean_name(raw, split_joined=ln.size >= 1.3 * body)
            shaped = name_shaped(cell)
            if not shaped and rank < 15 and (head := _name_before_headline(cell, top=rank < 3)):
                cell = head  # "Sophie Robinson, Machine Learning Engineer": a name and its headline in one cell
            elif not shaped and not (rank < 5 and single_name(cell, ln.size, body)) \
                    and not (ln.size >= 1.3 * body and _surname_is_a_word(cell)) \
                    and not (rank < 3 and ln.size >= 1.5 * max(body, 0.5) and cjk_name_shape(cell)):
                continue
            score = (ln.size / max(body, 0.5)) * 10 - rank * 0.15 - pos * 0.5  # body is 0 when most text is < 0.25 pt
            score += 1.5 * known_name_share(cell)  # "Sophie Robinson" over "South Jamesburgh" in the same type
            if ln.bold:
                score += 1
            h = doc.page_sizes[0][1] if doc.page_sizes else 800
            if ln.y0 < 0.25 * h:
                score += 2
            if best is None or score > best[0]:
                best = (score, Hit(cell, i))
    if best is None:
        return _name_before_comma(doc, first_page[:3]) or _lower_case_name(doc, body)
    hit = best[1]
    if " " not in hit.value and (beside := _name_beside(lines, hit)) is not None:
        return beside
    prev = hit.line - 1
    if prev >= 0 and hit.value == clean_name(lines[hit.line].text) and len(lines[prev].text.split()) == 1 \
            and abs(lines[prev].size - lines[hit.line].size) < 0.6 and lines[prev].page == lines[hit.line].page \
            and name_like(lines[prev].text) and name_shaped(f"{clean_name(lines[prev].text)} {hit.value}"):
        return Hit(f"{clean_name(lines[prev].text)} {hit.value}", prev)  # "Matteo" / "Di Fabio" on two lines
    nxt = hit.line + 1
    if nxt < len(lines) and hit.value == lines[hit.line].text.strip():
        cur, follow = lines[hit.line], lines[nxt]
        words = follow.text.split()
        if (abs(follow.size - cur.size) < 0.6 and 1 <= len(words) <= 3 and follow.page == cur.page
                and all(NAME_WORD.match(w) and w[0].isupper() for w in words)
                and name_like(follow.text) and name_shaped(f"{hit.value} {follow.text.strip()}")):
            return Hit(f"{hit.value} {follow.text.strip()}", hit.line)  # a long name wrapped in big type
    return hit


def _name_before_comma(doc: ExtractedDoc, first: list[int]) -> Hit | None:
    """"Wade Example, Campus Town, 28 Dec 2017": a name opening the document's first line, then where and when
    the CV was written (only when nothing else on the page is name-shaped)."""
    for i in first:
        head, comma, rest = doc.lines[i].text.partition(",")
        if comma and name_shaped(head.strip()) and (find_date_ranges(rest) or re.search(r"\b\d{1,2}\s+\w{3,9}\s+\d{4}\b",
                                                                                       rest)):
            return Hit(head.strip(), i)
    return None


def _name_beside(lines: list, hit: Hit) -> Hit | None:
    """A one-word name with its other half on the same row in the same type, across a column gap
    ("JOANNA" … "KOWALSKA" over two columns): both halves, left to right."""
    a = lines[hit.line]
    for j, b in enumerate(lines):
        if j == hit.line or b.page != a.page or abs(b.size - a.size) >= 0.6 or b.bold != a.bold or not same_row(a, b):
            continue
        other = clean_name(b.text)
        if " " in other or not single_name(other, b.size, 0, labelled=True):
            continue
        left, right = (hit.value, other) if a.x0 < b.x0 else (other, hit.value)
        if name_shaped(f"{left} {right}"):
            return Hit(f"{left} {right}", min(hit.line, j))
    return None


def _lower_case_name(doc: ExtractedDoc, body: float) -> Hit | None:
    """A name its owner typed in lower case ("ada quist"), accepted only with two cues: it is the
    largest line at the top of page one, and one of its words is in the CV's own e-mail address."""
    lines = doc.lines
    top = [i for i, ln in enumerate(lines[:8]) if ln.page == 0]
    if not top:
        return None
    i = max(top, key=lambda k: lines[k].size)
    ln = lines[i]
    words = ln.text.split()
    if ln.size < 1.3 * max(body, 0.5) or not 2 <= len(words) <= 3 or not all(w.isalpha() and w.islower() for w in words):
        return None
    locals_ = [m.group(0).split("@")[0].lower() for ln2 in lines[:60] for m in EMAIL.finditer(ln2.text)]
    if not any(len(w) >= 3 and w in loc for w in words for loc in locals_):
        return None
    lex = load_lexicon()
    if heading_key(ln.text) in lex.headings or lex.title_re.search(ln.text):
        return None
    return Hit(ln.text.strip(), i)


def _labelled_name(lines: list, first_page: list[int]) -> tuple[str, int, int] | None:
    """A name under a form's labels ("Nome Completo Rui Almeida", "Vorname | Anna" + "Nachname | Schmidt"):
    (value, line of the value, line of its label), the first whose parts all look like a person's."""
    if not first_page:
        return None
    start = first_page[0]
    for found in assemble(label_parts([ln.text for ln in lines[start:first_page[-1] + 1]], start)):
        pieces = [_labelled_value(p) for p in found.parts]
        if all(pieces) and (len(pieces) == 1 or name_like(" ".join(pieces))):
            return " ".join(pieces), found.line, found.label_line
    return None


def _labelled_value(text: str) -> str:
    """The name in a labelled value cell, or "" when it does not look like a person's name."""
    cells = split_cells(text)
    value = " ".join(clean_name(cells[0].replace(",", " ")).split()) if cells else ""
    return value if value and (name_shaped(value) or single_name(value, 0, 0, labelled=True)
                               or cjk_name_shape(value, labelled=True)) else ""


_HEAD_SPLIT = re.compile(r"\s*[,，]\s*|\s+[-–—|·]\s+")


def _name_before_headline(cell: str, top: bool) -> str:
    """The name of a cell that prints a name, then its headline ("Teun van Bovenen, Juridisch medewerker";
    "Ana Ruiz – Jefa de Ventas"), or "" when the cell does not start that way. Below the first three lines of the
    page the headline must hold a job-title word ("Active Duty, United States Air Force" is an entry, not a name)."""
    pieces = _HEAD_SPLIT.split(cell, maxsplit=1)
    if len(pieces) != 2 or not pieces[1]:
        return ""
    head, tail = clean_name(pieces[0], split_joined=False), pieces[1]
    if not name_shaped(head) or name_shaped(tail) or is_place_name(tail) or find_date_ranges(tail) \
            or len(tail.split()) > 8:
        return ""  # two names; "Ana Ruiz, Madrid" (a place); a sentence
    return head if top or load_lexicon().title_re.search(tail) else ""


def single_name(cell: str, size: float, body: float, labelled: bool = False) -> bool:
    """A one-word name ("Ottavio", "Archimedes"): only under a name label or in large type at the very top."""
    words = cell.split()
    if len(words) != 1 or not NAME_WORD.match(cell) or not cell[:1].isupper() or len(cell) < 3:
        return False
    if not labelled and (not body or size < 1.5 * body):
        return False
    lex = load_lexicon()
    key = normalize_key(cell)
    return not (key in lex.name_stopwords or heading_key(cell) in lex.headings or canonical_skill(cell)
                or lex.title_re.search(cell) or lex.company_re.search(cell) or key in LABEL_WORDS
                or is_place_name(cell) or lex.language_re.fullmatch(cell)) and name_like(cell)
