"""Vocabulary loaded from ``resources/``: headings, skills and aliases, dates, degrees, titles.

Everything language-specific lives in data files so that adding a language or a
skill is an edit to YAML, not to code. Loaded once per process.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from cvrag_desktop.text.keys import heading_key, normalize_key
from cvrag_desktop.text.vocab.resources import resource_yaml


@dataclass(frozen=True)
class Lexicon:
    """All vocabulary tables, keyed for fast lookup."""

    headings: dict[str, str]  # heading key -> canonical section
    skill_aliases: dict[str, str]  # normalized alias/canonical -> canonical
    skill_pattern: re.Pattern
    months: dict[str, int]
    present_words: tuple[str, ...]
    since_words: tuple[str, ...]
    degree_re: re.Pattern
    institution_re: re.Pattern
    title_re: re.Pattern
    company_re: re.Pattern
    languages: dict[str, str]  # normalized name -> canonical English name
    language_re: re.Pattern
    name_stopwords: tuple[str, ...]


def _word_alternation(words: list[str]) -> str:
    parts = sorted({w for w in words if w}, key=len, reverse=True)
    return "|".join(re.escape(w) for w in parts)


def _cjk_alternation(words: list[str]) -> str:
    """An extra alternative for CJK words, which sit inside runs of characters with no spaces."""
    return f"|(?:{_word_alternation([str(w) for w in words])})" if words else ""


# Han, kana and Hangul are word characters to ``re`` but a CV in Chinese or Japanese writes a tool's
# name against them with no space ("精通python，", "使用Docker部署"): they do not bind a Latin name.
_CJK_RANGES = r"\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
_NOT_CJK_WORD = rf"[^\W{_CJK_RANGES}]"
CJK_CHAR = re.compile(rf"[{_CJK_RANGES}]")


def _bounded(alt: str) -> str:
    """Word boundaries that also work for tokens ending in symbols (C++, C#, .NET) and beside CJK text."""
    return rf"(?<![+#.])(?<!{_NOT_CJK_WORD}){alt}(?![+#]|\.\w)(?!{_NOT_CJK_WORD})"


@cache
def load_lexicon() -> Lexicon:
    """Read the YAML vocabularies once and compile their matchers."""
    headings_raw = resource_yaml("headings.yaml")
    headings = {heading_key(p): sec for sec, phrases in headings_raw.items() for p in phrases}
    aliases_raw = resource_yaml("skill_aliases.yaml")
    skill_aliases: dict[str, str] = {}
    for canonical, alts in aliases_raw.items():
        canonical = str(canonical)
        skill_aliases[normalize_key(canonical)] = canonical
        for a in alts or []:
            skill_aliases.setdefault(normalize_key(str(a)), canonical)
    lex = resource_yaml("lexicon.yaml")
    months = {normalize_key(w): int(m) for m, words in lex["months"].items() for w in words}
    languages = {normalize_key(w): canon for canon, words in lex["languages"].items() for w in [canon, *words]}
    flags = re.IGNORECASE
    return Lexicon(
        headings=headings,
        skill_aliases=skill_aliases,
        # a space in a known skill also matches a hyphen ("React-Native", "Machine-Learning")
        skill_pattern=re.compile(
            _bounded(f"(?:{_word_alternation(list(skill_aliases))})").replace(r"\ ", r"[\s\-]"), flags),
        months=months,
        present_words=tuple(normalize_key(w) for w in lex["present"]),
        since_words=tuple(normalize_key(w) for w in lex["since_words"]),
        degree_re=re.compile(_degree_pattern(lex["degree_patterns"]), flags),
        institution_re=re.compile(_inst_pattern(lex["institution_words"])
                                  + r"|\w{3,}(?<!pre)(?:" + _word_alternation(lex.get("institution_suffixes", [])) + r")\b",
                                  flags),
        title_re=re.compile(
            # a German feminine ending on any head ("Partnerin", "Controllerin")
            r"(?<![\w])(?:" + _word_alternation(lex["title_words"]) + r")(?:in|innen)?(?![\w]|-\w)"
            r"|\w{3,}(?:" + _word_alternation(lex.get("title_suffixes_de", [])) + r")(?:in|innen)?\b(?!-\w)"
            # medical and other specialists in every language: cardiologist, Kardiologe, cardiólogo, cardioloog
            r"|\w{3,}(?:ologist|[oó]log(?:ue|o|a|e|in)?|oloog)\b(?!-\w)"
            + _cjk_alternation(lex.get("title_words_cjk", [])),
            flags,
        ),
        company_re=re.compile(r"(?<![\w])(?:" + _word_alternation(lex["company_words"]) + r")(?![\w])"
                              r"|\w{3,}(?:" + _word_alternation(lex.get("company_suffixes", [])) + r")\b"
                              + _cjk_alternation(lex.get("company_words_cjk", [])), flags),
        languages=languages,
        language_re=re.compile(_language_pattern(list(languages) + _raw_language_words(lex["languages"])), flags),
        name_stopwords=tuple(normalize_key(w) for w in lex["name_stopwords"]),
    )


def _language_pattern(words: list[str]) -> str:
    """Language names: a Latin name bounded by anything but a Latin word character ("Deutsch (C1)",
    "会说English"); a CJK name inside its run of characters ("英语六级", "日本语N2")."""
    cjk = [w for w in words if CJK_CHAR.search(w)]
    latin = [w for w in words if w not in cjk]
    return (rf"(?<!{_NOT_CJK_WORD})(?:{_word_alternation(latin)})(?!{_NOT_CJK_WORD})"
            + _cjk_alternation(cjk))


def _raw_language_words(table: dict) -> list[str]:
    return [str(w) for canon, words in table.items() for w in [canon, *words]]


def _degree_pattern(patterns: list[str]) -> str:
    cjk = [p for p in patterns if any("\u3040" <= c <= "\u9fff" for c in p)]
    latin = [p for p in patterns if p not in cjk]
    pat = r"(?<![\w])(?:" + "|".join(latin) + r")(?![\w])"
    return pat + ("|(?:" + "|".join(cjk) + ")" if cjk else "")


def _inst_pattern(words: list[str]) -> str:
    latin = [w for w in words if w.isascii() or not any("\u4e00" <= c <= "\u9fff" for c in w)]
    cjk = [w for w in words if w not in latin]
    pat = r"(?<![\w])(?:" + _word_alternation(latin) + r")(?![\w])"
    if cjk:
        pat += "|(?:" + _word_alternation(cjk) + ")"
    return pat
