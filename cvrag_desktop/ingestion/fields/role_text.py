"""Header texts that need more than splitting at separators: role headers flattened into one
run of words, thesis lines that mention a degree, and honours printed after a degree."""

from __future__ import annotations

import re

from cvrag_desktop.ingestion.fields.cells import is_location
from cvrag_desktop.text.vocab.lexicon import load_lexicon
from cvrag_desktop.text.vocab.places import country_in_text, is_place_name

HONOURS = re.compile(r"[\s,;(–-]*(?:(?:summa|magna)\s+)?cum\s+laude\b\)?|[\s,;(–-]*\bwith\s+(?:first[- ]class\s+|high\s+)?"
                     r"(?:honou?rs|distinction|merit)\b\)?|[\s,;(–-]*\b(?:mit\s+Auszeichnung|con\s+lode|"
                     r"avec\s+(?:mention\s+)?(?:très\s+)?(?:bien|honorable|félicitations)|com\s+distinção)\b\)?",
                     re.IGNORECASE)  # honours printed after a degree are not part of it

_PLACE_TAIL = re.compile(r"^(?P<rest>.+?)\s+(?P<place>(?:[A-ZÀ-Ý][\w.'’-]*\s+){0,2}[A-ZÀ-Ý][\w.'’-]*,\s*"
                         r"[A-ZÀ-Ý][\w.'’ -]*)$")
_THESIS = re.compile(r"\b(?:thesis|theses|project|projekt|arbeit|mémoire|memoire|tesi|tesis|tese|dissertation|"
                     r"topic|subject|thema|sujet|argomento|tema|supervisor|advisor|betreuer)\b", re.IGNORECASE)


def not_a_degree(text: str) -> bool:
    """A thesis or project line ("Master Thesis: …", "Bachelor thesis focused on …"), a sentence, or a
    "City, ST" place ("Cambridge, MA") mentions a degree word without being a degree."""
    t = text.strip()
    if _THESIS.search(t) or (t.endswith((":", "：")) and len(t.split()) >= 3):
        return True  # "Competencias adquiridas en el grado:" introduces a list, it names no degree
    if is_location(t):  # "Cambridge, MA" is a place; "Licencjat, Marketing" and "B.A. Design, RWTH Aachen"
        return not load_lexicon().degree_re.match(t)  # open with their degree word
    words = t.split()
    return bool(words and words[0] in {"In", "The", "My", "During", "For", "As", "On"} and len(words) >= 5)


def split_flat_header(text: str) -> tuple[str, str, str] | None:
    """Split a role header whose cells were flattened into one run of words.

    "Software Engineer Acme Corp Mountain View, CA" (a Word file or PDF that lost its tab
    stops) is title words, then the employer, then a "City, Region" place. Only split when
    the place is known to the gazetteer and the text starts with a job title.
    """
    m = _PLACE_TAIL.match(text.strip())
    if not m:
        return None
    rest, place = m.group("rest"), m.group("place")
    city, _, region = place.partition(",")
    words = city.split()
    for n in range(1, len(words) + 1):  # the shortest tail of the capitalised run that is a place
        cand = " ".join(words[-n:])
        if is_place_name(cand):
            rest = " ".join([rest, *words[:-n]]).strip()
            place = f"{cand}, {region.strip()}"
            break
    else:
        return None
    region = region.strip()
    if not (re.fullmatch(r"[A-Z]{2,3}", region) or country_in_text(region) or is_place_name(region)):
        return None
    lex = load_lexicon()
    matches = list(lex.title_re.finditer(rest))
    if not matches or matches[0].start() > 40:
        return None
    end = matches[0].end()
    for mt in matches[1:]:
        if len(rest[end:mt.start()].split()) > 2:
            break
        end = mt.end()
    title, firm = rest[:end].strip(" ,"), rest[end:].strip(" ,")
    if not firm or not (firm[:1].isupper() or firm[:1].isdigit()) or len(firm.split()) > 10:
        return None
    return title, firm, place


