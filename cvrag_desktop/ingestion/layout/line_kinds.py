"""What kind of line a role entry's line is, beyond bullets: employer descriptions, tool lists,
list items whose bullet was drawn, and headers flattened into one long line.

These tests keep body text out of role headers (so a "Fintech company with 300 employees" or
"Technologies: Java, Spring" line never becomes the employer) and let a flattened header open
an entry.
"""

from __future__ import annotations

import re

from cvrag_desktop.ingestion.fields.dates import find_date_ranges
from cvrag_desktop.ingestion.layout.textline import TextLine
from cvrag_desktop.text.vocab.skills import canonical_skill

BULLET = re.compile(r"^\s*(?:[•·▪●◦‣■□➢►✓✔\-*–—]|\d{1,2}[.)](?!\d))\s*")  # "1." a number, "03.2018" a date
_STACK_LABEL = re.compile(
    r"^(?:technolog(?:ies|y|ien|ie|ías|ias)|technos?|tech(?:nical)?\s+stack|stack|tools|outils|environnement(?:\s+technique)?|"
    r"environment|tecnologie|werkzeuge|herramientas|ferramentas|strumenti|keywords|mots[- ]clés)\s*:", re.IGNORECASE)


def is_stack_label(text: str) -> bool:
    """A "Technologies : …" / "Tools:" line listing a role's tools."""
    return bool(_STACK_LABEL.match(text))


_HEADCOUNT = re.compile(
    r"\d[\d.,\u202f ]*\+?\s*(?:employees|staff|people|professionals|engineers|students|pupils|beds|"
    r"empleados|trabajadores|profesionales|alumnos|camas|mitarbeite\w*|beschäftigte\w*|schüler\w*|betten|"
    r"salariés|collaborateurs|employés|agents|élèves|lits|dipendenti|collaboratori|studenti|posti letto|"
    r"funcionários|colaboradores|empregados|alunos|leitos)\b", re.IGNORECASE)
_FIRM_NOUN = re.compile(
    r"\b(?:company|business|firm|group|start-?up|scale-?up|sme|agency|consultancy|corporation|empresa|compañía|"
    r"grupo|pyme|unternehmen|betrieb|konzern|entreprise|société|groupe|pme|azienda|gruppo|società|pmi|companhia|"
    r"hospital|klinik|clinique|school|escuela|schule|école|scuola|escola)\b", re.IGNORECASE)
_SECTOR = re.compile(r"\b(?:sector|industry|branche|secteur|settore|setor|mid-sized|medium-sized|mittelständisch\w*|"
                     r"mediana|moyenne|media impresa|leading|global|multinational|multinacional|family-owned)\b",
                     re.IGNORECASE)


def company_blurb(text: str) -> bool:
    """A line that describes the employer ("Fintech company with about 300 employees", "Mid-sized media
    business", "Start-up del sector seguros"): a headcount, or a firm noun with a sector or size word
    and mostly lowercase words (so "Global Business Group" stays a name)."""
    t = text.strip()
    words = t.split()
    if "\t" in t or not 2 <= len(words) <= 14 or t.endswith("."):
        return False
    if _HEADCOUNT.search(t):
        return True
    if not (_FIRM_NOUN.search(t) and _SECTOR.search(t)):
        return False
    lower = sum(1 for w in words[1:] if w[:1].islower())
    return lower >= 2 or bool(re.search(r"\b(?:sector|industry|branche|secteur|settore|setor)\b", t, re.I))


def ends_with_range(text: str) -> bool:
    """A header flattened into one long line: up to 16 words, no bullet or sentence stop, then a full range."""
    t = text.rstrip()
    ranges = find_date_ranges(t)
    if not ranges or BULLET.match(t):
        return False
    r = ranges[-1]
    head = t[: r.span[0]].strip()
    return (r.span[1] >= len(t) - 1 and r.start is not None and (r.end is not None or r.is_current)
            and 3 <= len(head.split()) <= 16 and head[:1].isupper()
            and not re.search(r"[^\W\d_]{5,}\.\s", head))  # a sentence stop, not an abbreviation ("Dep.")


def tech_stack(text: str) -> bool:
    """A comma list of known skills: four or more items, most of them known, or two or three all (nearly) known."""

    items = [p.strip() for p in re.split(r"[,;]", re.sub(r"\([^()]*\)", "", text)) if p.strip()]  # "AWS (EC2, S3)"
    known = sum(1 for p in items if canonical_skill(p))
    if 2 <= len(items) < 4:
        return known == len(items) or (len(items) == 3 and known == 2 and len(text) <= 60)  # "Linux, Terraform, Gitlab CI"
    if len(items) < 4:
        return False
    if known >= 0.6 * len(items):
        return True
    # a list of short names ("GCP, Terraform, Trivy, Gravitee, Monitoring"): tools the lexicon does not know yet
    short = all(len(p.split()) <= 3 and not re.search(r"\d{4}", p) for p in items)
    return short and known >= 0.4 * len(items)


def indented_item(ln: TextLine, head: TextLine, body_pt: float) -> bool:
    """A plain line set slightly right of its entry's first header line, in body type, with no date or cells."""
    indent = ln.x0 - head.x0
    return (ln.page == head.page and 4.0 <= indent <= 2.5 * ln.size and not ln.bold
            and ln.size <= body_pt + 0.5 and not find_date_ranges(ln.text)
            and all(len(c.split()) <= 1 for c in ln.text.split("\t")[1:]))  # no cells; justified gaps are fine


# a length of time as CVs and profile exports print it ("3 years", "10 mois", "2 jaar", "5 miesięcy")
DURATION_UNIT = (r"(?:ans?|years?|yrs?|mois|months?|mos?|jahre?|monate?|años?|meses|mes|anni|anno|mesi|mese|anos?|"
                 r"mês|jaar|jaren|maanden?|lat|lata|rok|miesiące|miesięcy|miesiąc|år|månader|månad|måneder|måned)")
_SPAN = rf"\d+\s*{DURATION_UNIT}\.?"
_GROUP_DURATION = re.compile(rf"^\S.{{0,60}}?\s+[—–·|-]\s+\(?{_SPAN}(?:[,\s]+(?:and\s+|et\s+|und\s+|y\s+)?{_SPAN})*"
                             r"(?:[,\s]+(?:aujourd['’]hui|present|current|heute|actualidad|hoje|oggi))?\)?$", re.I)


def group_duration(text: str) -> bool:
    """"Firm — 7 ans, 10 mois" / "Acme · 3 yrs 2 mos": a firm's total time above the roles held there
    (LinkedIn-style grouping). It is neither a role header nor a dated line of its own."""
    return "\t" not in text.strip() and bool(_GROUP_DURATION.match(text.strip()))
