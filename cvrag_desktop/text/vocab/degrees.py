"""Degrees: their levels as printed in a CV or named in a question, in every supported language.

One table decides what "a master's" is for the chat, the Degree facet, job matching and the
answer checks: :data:`DEGREE_LEVELS` reads a printed degree ("Máster en …", "Dr. rer. nat.",
"硕士"), :data:`QUESTION_LEVELS` the way a question or a job description names a level
("a doctorate", "promoviert"). :data:`EXPECTED` tells a degree the CV marks as still to
come; :class:`DegreeClaim` is one printed degree with its level and that mark.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from cvrag_desktop.text.keys import normalize_key

# Degree levels, most specific first (vocational before bachelor: "Ciclo Formativo de Grado Superior").
_B = r"(?<![\w])"
_E = r"(?![\w])"
DEGREE_LEVELS: tuple[tuple[str, re.Pattern], ...] = (
    ("phd", re.compile(_B + r"(ph\.?\s?d\.?|doctorado|doctorat|doctorate|doctor of|doktor|dottorato|doutorado|"
                       r"promotion|dr\.)" + _E + r"|^dr\.?\s|博士(?!前期)", re.I)),
    ("vocational", re.compile(_B + r"(ciclo formativo|tecnico superior|tecnico em|tecnologo|staatlich gepruft\w*|"
                              r"ausbildung|bts|dut|hnd|associate degree|diploma in|diploma di|diploma tecnico|"
                              r"diplome d'etat|diplome d etat)" + _E, re.I)),
    ("master", re.compile(_B + r"(master'?s?|msc|ms|m\.\s?s\.|m\.\s?sc\.?|m\.\s?a\.?|ma|mba|maestria|mestrado|magister|"
                          r"laurea magistrale|pos-graduacao|pos graduacao|diplom|diplome d'ingenieur|m\.?\s?eng\.?|"
                          r"m\.\s?phil\.?)" + _E + r"|硕士|碩士|修士|博士前期", re.I)),
    ("bachelor", re.compile(_B + r"(bachelor'?s?|bsc|bs|b\.\s?s\.|b\.\s?sc\.?|b\.\s?a\.?|ba|grado|graduacao|licenciatura|licence|"
                            r"laurea|laurea triennale|bacharelado|ingenieria tecnica|b\.?\s?eng\.?|b\.?\s?tech\.?)"
                            + _E + r"|学士|本科", re.I)),
)
LEVEL_RANK = {"vocational": 1, "bachelor": 2, "master": 3, "phd": 4}
# How a question names a degree level.
QUESTION_LEVELS: tuple[tuple[str, re.Pattern], ...] = (
    ("phd", re.compile(r"\b(ph\.?\s?d\.?s?|doctorates?|doctoral|doctorado|doctorat|dottorato|doutorado|"
                       r"doktor\w*|promoviert\w*|博士)(?!\w)", re.I)),
    ("master", re.compile(r"\b(master'?s?|msc|mba|postgraduate|mestrado|maestria|masterstudium|"
                          r"laurea magistrale|硕士|修士)(?!\w)", re.I)),
    ("bachelor", re.compile(r"\b(bachelor'?s?|bsc|undergraduate degree|licenciatura|bacharelado|grado|"
                            r"laurea triennale|学士|本科)(?!\w)", re.I)),
    ("vocational", re.compile(r"\b(vocational|associate degree|technician diploma)\b", re.I)),
)


LEVEL_WORDS = {"phd": "doctorate", "master": "master's degree", "bachelor": "bachelor's degree",
               "vocational": "vocational qualification"}
# the pane's Degree choices: 1 any other degree, 2 bachelor, 3 master, 4 doctorate
RANK_NAMES = {4: "phd", 3: "master", 2: "bachelor"}
EXPECTED = re.compile(
    r"\b(expected|in progress|ongoing|anticipated|pending|(?:ph\s?d|doctoral|degree) candidate|to be completed|"
    r"currently enrolled|\d{4}\s*[-–]\s*(?:present|now|current|heute|aktuell|actualidad|presente|obecnie|oggi)|"
    r"voraussichtlich|laufend|angestrebt|derzeit|"
    r"en curso|cursando|previst[oa]|en cours|prevue?|in corso|em andamento|previsao|"
    r"verwacht|lopend|w trakcie|w toku|planowan\w*)\b|预计|在读|予定|見込み|在学中", re.I)
# a word that names a doctorate (the line beside an entry's institution that is its degree)
DOCTORATE_WORD = re.compile(r"\b(dr|ph\s?d|doktor\w*|doctor\w*|dottorato|doutorado|doctoraat|promotion)\b", re.I)
# a degree named in an answer's sentence (each must be found in the excerpts it cites)
DEGREE_WORDS = re.compile(
    r"(?<!\w)(ph\.?\s?d\.?|doctorate|doctoral|doctor of|master'?s?|msc|m\.sc\.?|mba|meng|bachelor'?s?|bsc|"
    r"b\.sc\.?|beng|b\.a\.|ba|b\.s\.|m\.a\.|licenciatura|grado|diploma|doctorado|máster|master)(?!\w)", re.I)


@dataclass(frozen=True)
class DegreeClaim:
    """One degree a CV prints: its level, the printed text, and whether it is only expected."""

    level: str | None
    degree: str
    expected: bool
    index: int


def degree_level(degree: str) -> str | None:
    """The level (phd, master, bachelor, vocational) of a degree as printed, or None."""
    key = normalize_key(degree)
    for level, pattern in DEGREE_LEVELS:
        if pattern.search(key):
            return level
    return None
