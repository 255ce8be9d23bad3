"""Does a candidate look like a person's name, or is it made only of the CV's own vocabulary?

A heading ("Professional Activities", "Estudios"), a form label ("First Name", "Vorname"),
an employment type ("Vollzeit"), the document's title ("Curriculum Vitae", "简历", "履歴書")
or a fragment of a degree line is never a name. A candidate is name-like when one of its
words is a given name or surname of the gazetteers (``resources/names/``) that no vocabulary
claims, or a capitalised word no vocabulary knows (rare names pass); a candidate made only of
vocabulary words is name-like only as a given name then surname(s) all in the gazetteers
("Grace Cook"). A CJK name is two to six characters opening with a known surname.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache

from cvrag_desktop.text.keys import heading_key, normalize_key
from cvrag_desktop.text.vocab.lexicon import load_lexicon
from cvrag_desktop.text.vocab.person_names import cjk_surname, is_given_name, is_name_word, is_surname
from cvrag_desktop.text.vocab.resources import resource_yaml, resources_dir
from cvrag_desktop.text.vocab.skills import canonical_skill

CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uac00-\ud7af]")
_HANGUL = re.compile(r"[\uac00-\ud7af]")
# CJK words of a CV's title, form and headings: a line holding one is not a name ("个人简历", "履歴書", "氏名")
_CJK_NOT_NAME = re.compile(r"简历|簡歴|簡歷|履歴|履历|履歷|経歴|经历|經歷|简介|簡介|信息|資料|资料|个人|個人|氏名|姓名|名前|"
                           r"ふりがな|フリガナ|联系|連絡|住所|电话|電話|教育|学歴|職歴|技能|スキル|自己|求职|応募|"
                           r"プロフィール|専門|项目|経験|经验|证书|資格|语言|語学|爱好|趣味|工作|工作经历|志望")
_SPLIT = re.compile(r"[\s\-‐/]+")
PARTICLES = frozenset({"de", "del", "della", "delle", "dei", "degli", "la", "le", "van", "von", "der", "den", "ten",
                       "ter", "zu", "da", "das", "do", "dos", "du", "des", "di", "bin", "al", "y", "e", "i", "und",
                       "and", "et", "of"})


@cache
def _not_names() -> tuple[frozenset[str], frozenset[str]]:
    """(phrases, words) of ``resources/names/not_names.txt`` and of every heading language, folded."""
    phrases: set[str] = set()
    try:
        text = (resources_dir() / "names" / "not_names.txt").read_text(encoding="utf-8")
    except OSError:
        text = ""
    phrases.update(normalize_key(ln) for ln in text.splitlines() if ln.strip() and not ln.startswith("#"))
    for heads in resource_yaml("headings.yaml").values():
        phrases.update(normalize_key(str(h)) for h in heads or ())
    words = {w for p in phrases for w in _SPLIT.split(p.replace(".", " ").replace(":", " ")) if len(w) >= 2}
    lex = resource_yaml("lexicon.yaml")
    for key in ("months", "languages"):
        for canon, alts in (lex.get(key) or {}).items():
            words.update(normalize_key(str(w)) for w in [canon, *(alts or ())] if not str(w).isdigit())
    words.update(normalize_key(str(w)) for w in lex.get("present") or ())
    return frozenset(phrases), frozenset(words - PARTICLES)


@lru_cache(maxsize=16384)
def vocabulary_word(word: str) -> bool:
    """Is ``word`` a word of the CV's vocabulary (heading, label, title, degree, school, employer, month, language,
    skill, employment type) rather than a name?"""
    key = normalize_key(word.strip(" .,;:()[]'’\"|"))
    if not key:
        return True
    if key in _not_names()[1]:
        return True
    lex = load_lexicon()
    w = word.strip(" .,;:()[]'’\"|")
    return bool(lex.title_re.search(w) or lex.degree_re.search(w) or lex.institution_re.search(w)
                or lex.company_re.search(w) or (len(key) > 2 and canonical_skill(w)))


def _cjk_name_like(text: str) -> bool:
    compact = re.sub(r"[\s\u3000・·•.]", "", text)
    if _CJK_NOT_NAME.search(compact) or heading_key(text) in load_lexicon().headings:
        return False
    if re.search(r"[\u30a0-\u30ff]", compact) and not re.search(r"[\u4e00-\u9fff]", compact):
        return 2 <= len(compact) <= 16  # a foreign name in katakana ("マリア・ガルシア"); no surname table for these
    dotted = [p for p in re.split(r"[・·•.]", text.strip()) if p.strip()]
    if len(dotted) >= 2 and all(1 <= len(p.strip()) <= 5 for p in dotted):
        return len(compact) <= 16  # a foreign name written in Han with middle dots ("卡尔・马克思"): no surname first
    lex = load_lexicon()
    if lex.title_re.search(text) or lex.company_re.search(text) or lex.institution_re.search(text) \
            or lex.degree_re.search(text):
        return False
    limit = 4 if _HANGUL.search(compact) else 6
    return 2 <= len(compact) <= limit and bool(cjk_surname(compact))


def cjk_name_shape(text: str, labelled: bool = False) -> bool:
    """A CJK name by shape only, for two strong cues where no known surname is needed: the largest type at the
    top of page one (two to four characters) or a value under a name label (up to twelve; "氏名 履歴書 書太郎").
    The CV's own words (简历, 履歴書, 個人資料) alone, titles, employers and schools are still refused."""
    compact = re.sub(r"[\s\u3000・·•.]", "", text)
    if not compact or not all(CJK.match(c) for c in compact):
        return False
    if not 2 <= len(compact) <= (12 if labelled else 4) or compact in {normalize_key(p) for p in _not_names()[0]}:
        return False
    lex = load_lexicon()
    if (not labelled and _CJK_NOT_NAME.search(compact)) or _CJK_NOT_NAME.fullmatch(compact) \
            or heading_key(text) in lex.headings:
        return False
    return not (lex.title_re.search(compact) or lex.company_re.search(compact) or lex.institution_re.search(compact)
                or lex.degree_re.search(compact))


@lru_cache(maxsize=16384)
def name_like(candidate: str) -> bool:
    """Could ``candidate`` be a person's name, judged by its words: see the module's docstring."""
    text = candidate.strip(" .,;:·•|-–—*")
    if not text:
        return False
    key = normalize_key(text)
    phrases = _not_names()[0]
    if key in phrases or key.strip(" :：") in phrases or heading_key(text) in load_lexicon().headings:
        return False
    if CJK.search(text):
        latin = re.sub(r"[\u3000-\u30ff\u3400-\u9fff\uf900-\ufaff\uac00-\ud7af・·]", " ", text).split()
        han = re.sub(r"[^\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uac00-\ud7af]", "", text)
        if latin and len(han) >= 2:  # "张伟 Wei Zhang" is a name; "株式会社XXX 入社" is not
            return _cjk_name_like(han) and name_like(" ".join(latin))
        return _cjk_name_like(text) if not latin else name_like(" ".join(latin))
    lex = load_lexicon()
    covered = [m.span() for rx in (lex.title_re, lex.degree_re, lex.institution_re, lex.company_re)
               for m in rx.finditer(text)]  # "Bachelor of Science", "Head of Sales": phrases of the vocabulary
    words = []
    for m in re.finditer(r"[^\s\-‐/]+", text):
        w = m.group(0)
        if not w.strip(".'’,").isalpha() or (w.lower() in PARTICLES and not w[:1].isupper()):
            continue
        inside = any(a <= m.start() and m.end() <= b for a, b in covered)
        # a lower-case word is a name only when the gazetteers know it ("ada quist"): "in", "profesionales" are not
        free = not inside and not vocabulary_word(w) and (w[:1].isupper() or is_name_word(w))
        words.append((w, free))
    if not words or lex.degree_re.match(text):
        return False  # "Bachelor of Science", "Mestrado em Engenharia": a degree line's fragment
    if any(w[:1].isupper() for w, _ in words) and any(w[:1].islower() and not is_name_word(w) for w, _ in words):
        return False  # "Praca na pełny etat": a capitalised phrase with a lower-case word that is no particle
    if any(free for _, free in words):
        return True  # a gazetteer name or an unknown capitalised word ("Ngozi", "Xanthe")
    words = [w for w, _ in words]
    # every word is vocabulary: a person only as a given name then surnames, each in the gazetteers ("Grace Cook")
    return len(words) >= 2 and is_given_name(words[0]) and all(is_surname(w) or is_given_name(w) for w in words[1:])


@lru_cache(maxsize=16384)
def known_name_share(candidate: str) -> float:
    """The share of the candidate's capitalised words that are gazetteer names (a CJK name: 1 with a known
    surname or as a transliteration with middle dots or in katakana), 0 to 1: the evidence that ranks
    name-shaped lines."""
    text = candidate.strip()
    if CJK.search(text) and not re.search(r"[A-Za-z]", text):
        return 1.0 if _cjk_name_like(text) else 0.0  # a known surname first, or a transliteration ("卡尔・马克思")
    words = [w for w in _SPLIT.split(text) if w and w[:1].isupper()]
    return sum(is_name_word(w) for w in words) / len(words) if words else 0.0
