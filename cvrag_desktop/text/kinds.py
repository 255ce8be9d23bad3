"""Is a value the kind of thing its field holds? Shape checks for phones, e-mails, places, languages, skills.

A value copied from a CV can be found in the CV's text and still be the wrong kind: a year
given as a phone number, a section heading as a location, "Present" as a language, a city as
a skill. Each ``*_problem`` function returns why ``value`` is not of its kind, or None when it
may be. They use the vocabularies of :mod:`cvrag_desktop.text.vocab` (places, languages,
skills, headings, months, the "present" words) and stay cheap; :func:`kind_problem` picks
the check by field name. Unknown but plausible values pass (a small town the gazetteer lacks,
a skill the alias table lacks): the checks reject what is clearly something else.
"""

from __future__ import annotations

import re

from cvrag_desktop.text.keys import heading_key, normalize_key
from cvrag_desktop.text.patterns import EMAIL_LIKE
from cvrag_desktop.text.vocab.languages import canonical_language
from cvrag_desktop.text.vocab.lexicon import load_lexicon
from cvrag_desktop.text.vocab.places import countries_of_places, is_place_name
from cvrag_desktop.text.vocab.skills import canonical_skill

_YEAR = re.compile(r"(?<!\d)(?:19|20)\d{2}(?!\d)")
_DATE_WORDS = frozenset(["to", "until", "till", "bis", "a", "al", "au", "since", "seit", "desde", "from", "von", "de"])
_WORDS = re.compile(r"[^\W\d_]+")
_URL = re.compile(r"https?://|www\.", re.IGNORECASE)
_LEVEL = re.compile(r"[(:\-–,]")
MIN_PHONE_DIGITS, MAX_PHONE_DIGITS = 7, 15  # a national number without its area code; E.164's longest
MAX_PLACE_WORDS, MAX_SKILL_WORDS, MAX_LABEL_CHARS = 6, 5, 160
_PLACE_CONNECTORS = frozenset(["de", "del", "la", "le", "les", "el", "am", "an", "der", "im", "upon", "on", "sur",
                               "en", "di", "da", "do", "dos", "das", "of", "and", "y", "et", "und", "sankt", "st"])


def is_heading(value: str) -> bool:
    """Is the whole value a CV section heading ("EXPERIENCE", "Berufserfahrung:", "Idiomas")?"""
    key = heading_key(value)
    return bool(key) and key in load_lexicon().headings


def is_date_like(value: str) -> bool:
    """Is the value only a date, a date range or a "present" word ("2019", "03/2019 – Present", "Current")?

    Its numbers must be years (19xx, 20xx) or days and months (one or two digits): "+41 44 123 2019" is no date.
    """
    lex = load_lexicon()
    key = normalize_key(value)
    dated = False
    for word in sorted(lex.present_words, key=len, reverse=True):
        pattern = rf"(?<!\w){re.escape(word)}(?!\w)"
        if re.search(pattern, key):
            key = re.sub(pattern, " ", key)
            dated = True
    groups = re.findall(r"\d+", key)
    if len(groups) > 6 or any(len(g) > 2 and not _YEAR.fullmatch(g) for g in groups):
        return False
    dated = dated or any(_YEAR.fullmatch(g) for g in groups)
    words = [w.rstrip(".") for w in _WORDS.findall(key)]
    months = [w for w in words if w in lex.months]
    rest = [w for w in words if w not in lex.months and w not in _DATE_WORDS]
    return (dated or bool(months)) and not rest


def _sentence_like(value: str, max_words: int) -> bool:
    return len(value.split()) > max_words or value.rstrip().endswith((".", "!", "?")) or len(value) > MAX_LABEL_CHARS


def _not_contact(value: str) -> str | None:
    if "@" in value or _URL.search(value):
        return "an e-mail address or a web address"
    return None


def phone_problem(value: str) -> str | None:
    """Why ``value`` is not a phone number (too few or too many digits, a year or a date, letters), else None."""
    digits = re.sub(r"\D", "", value)
    if not value.lstrip().startswith("+") and is_date_like(value):  # "+49 (0) 30 2019 2020" is a number
        return "a year or a date"
    if len(digits) < MIN_PHONE_DIGITS:
        return f"{len(digits)} digits, too few for a phone number"
    if len(digits) > MAX_PHONE_DIGITS:
        return f"{len(digits)} digits, too many for a phone number"
    if re.search(r"[^\W\d_]{2,}", re.sub(r"(?i)\b(?:ext|tel|phone|mobile|mob|fax)\b\.?", "", value)):
        return "words, not a phone number"
    return None


def email_problem(value: str) -> str | None:
    """Why ``value`` is not an e-mail address, else None."""
    return None if EMAIL_LIKE.fullmatch(value.strip()) else "not shaped like an e-mail address"


def _label_problem(value: str) -> str | None:
    """What no name, title, company or place can be: a section heading, a date, an address."""
    if is_heading(value):
        return "a section heading"
    if is_date_like(value):
        return "a date"
    return _not_contact(value)


def place_problem(value: str) -> str | None:
    """Why ``value`` is not a place (a heading, a date, a skill, a language, a sentence), else None."""
    problem = _label_problem(value)
    if problem:
        return problem
    if is_place_name(value) or countries_of_places(value):
        return None
    if canonical_skill(value):
        return "a skill"
    if canonical_language(value):
        return "a language"
    lex = load_lexicon()
    if lex.company_re.search(value) or lex.institution_re.search(value):
        return "an employer or a school"
    if lex.title_re.search(value):
        return "a job title"
    if _sentence_like(value, MAX_PLACE_WORDS):
        return "a sentence"
    words = [w for w in re.split(r"[\s,]+", value) if w]
    if any(not (w[:1].isupper() or w.lower() in _PLACE_CONNECTORS or w[:1].isdigit()) for w in words):
        return "not shaped like a place name"
    return None


_LEVEL_WORDS = re.compile(
    r"(?i)\b(?:[abc][12]|native|fluent|fluently|mother\s+tongue|basic|beginner|intermediate|advanced|proficient|"
    r"business|conversational|good|very|excellent|courant|langue\s+maternelle|notions|bilingue|bilingual|"
    r"fließend|fliessend|muttersprache|grundkenntnisse|gute|sehr|verhandlungssicher|nativo|nativa|fluente|"
    r"básico|basico|intermedio|avanzado|moedertaal|vloeiend|goed)\b")


def language_problem(value: str) -> str | None:
    """Why ``value`` is not a spoken language ("Present", "Current", "Python", a city, a heading), else None.

    The level a CV writes beside a language ("English C1", "Native English", "Anglais courant")
    is set aside before the lookup; a language the list lacks ("Wolof") passes unless it is
    clearly something else, as the module says.
    """
    base = _LEVEL.split(value, maxsplit=1)[0].strip() or value
    bare = " ".join(_LEVEL_WORDS.sub(" ", base).split())
    if any(canonical_language(v) for v in (base, value, bare) if v):
        return None
    if is_date_like(value):
        return "a date or a 'present' word"
    problem = _label_problem(value)
    if problem:
        return problem
    if canonical_skill(bare or value):
        return "a skill"
    if is_place_name(bare or value) or countries_of_places(bare or value):
        return "a place"
    if _sentence_like(value, 4) or not bare:
        return "not shaped like a language"
    return None


def skill_problem(value: str) -> str | None:
    """Why ``value`` is not a skill (a place, a language, a date, a heading, a sentence), else None."""
    if canonical_skill(value):
        return None
    problem = _label_problem(value)
    if problem:
        return problem
    if is_place_name(value):
        return "a place"
    if canonical_language(value):
        return "a language"
    if _sentence_like(value, MAX_SKILL_WORDS):
        return "a sentence"
    return None


def label_problem(value: str) -> str | None:
    """Why ``value`` is no name, title, company, school or certificate (a heading, a date, an address), else None."""
    problem = _label_problem(value)
    if problem:
        return problem
    if len(value) > MAX_LABEL_CHARS:
        return "too long"
    return None


_BY_FIELD = {"phones": phone_problem, "emails": email_problem, "location": place_problem,
             "languages": language_problem, "skills": skill_problem}


def kind_problem(field: str, value: str) -> str | None:
    """The check of a field (``phones``, ``emails``, ``location``, ``languages``, ``skills``; any other
    field name: :func:`label_problem`) applied to ``value``; why it is the wrong kind, or None."""
    name = re.sub(r"\[\d+\]", "", field).split(".")[-1]
    check = _BY_FIELD.get(name) or _BY_FIELD.get(field.split("[")[0], label_problem)
    return check(value)
