"""Route a question and extract its filters without a language model.

The rules read the question against the vocabulary (:mod:`.vocabulary`): skills through
the ingestion alias table, spoken languages, degree levels, "N+ years", and the
catalog's own candidate names, employers and places. The result is a *plan*: the route,
the filters, the analytics operation (if the question is arithmetic over facts), the
named candidates, the field asked about, and the leftover content terms that the
retrieved evidence must contain for an extractive answer to count as supported.
"""

from __future__ import annotations

import re

from cvrag_desktop.assistant.facts.people import PeopleIndex
from cvrag_desktop.assistant.understand.numbers import extract_years, years_phrase_words
from cvrag_desktop.assistant.understand.plan import DOMAIN, FIELD_TERMS, GENERIC, STOPWORDS, Plan
from cvrag_desktop.assistant.understand.question import (
    about_people,
    has_any,
    in_unlisted_language,
    phrases,
    says_currently,
)
from cvrag_desktop.assistant.understand.questions import disambiguate, refine, resolve_people
from cvrag_desktop.assistant.understand.typos import TermIndex
from cvrag_desktop.assistant.understand.vocabulary import CatalogVocabulary
from cvrag_desktop.text.keys import normalize_key, text_key
from cvrag_desktop.text.vocab.degrees import QUESTION_LEVELS
from cvrag_desktop.text.vocab.languages import canonical_language
from cvrag_desktop.text.vocab.lexicon import load_lexicon
from cvrag_desktop.text.vocab.skills import AMBIGUOUS_SKILLS, canonical_skill

# "a master's or higher", "at least a bachelor's": the Degree facet's rank, not one exact level
OR_HIGHER = re.compile(r"\b(or (?:higher|above|more|better)|at least|minimum|oder h(?:o|ö)her|mindestens|"
                       r"o superior|ou plus|ou superieur|o superiore|ou superior|of hoger|lub wyzsz\w*|co najmniej)\b"
                       r"|以上", re.I)
OFF_TOPIC = re.compile(r"\b(weather|joke|poem|recipe|capital of|stock price|news|translate|football|movie|song)\b")
FIELD_WORDS: tuple[tuple[str, re.Pattern], ...] = (
    ("email", re.compile(r"\b(e-?mail|mail address)\b")),
    ("phone", re.compile(r"\b(phone|telephone|mobile|cell)\b")),
    ("years", re.compile(r"\b(how many years|years of experience|how long has|how much experience)\b")),
    ("education", re.compile(r"\b(education|degrees?|studied|studies|study|university|diploma|qualifications?)\b")),
    ("languages", re.compile(r"\b(languages?|speaks?|speaking)\b")),
    ("skills", re.compile(r"\b(skills?|stack|technologies|tools)\b")),
    ("certifications", re.compile(r"\b(certifications?|certified|certificates?)\b")),
    ("location", re.compile(r"\b(location|lives?|living|based|city|located)\b")),
    ("current", re.compile(r"\b(current(ly)?|now|today|present)\b|\bwhat does \w+ do\b|\bjob title\b")),
    ("employers", re.compile(r"\b(employers?|companies|worked|work history|career|previous jobs?|experience)\b")),
)
PRONOUNS = re.compile(r"\b(she|he|her|his|him|they|them|their|hers|this candidate|that candidate|the candidate|"
                      r"this person|that person)\b", re.I)
COUNT_RE = re.compile(r"\b(how many|number of|count)\b")
COMPARE_RE = re.compile(r"\b(compare|comparison|versus|vs\.?|difference between|differences between)\b")
LIST_RE = re.compile(r"\b(list|everyone|everybody|all (the )?candidates|all of the|which candidates|who are the)\b")
TENURE_RE = re.compile(r"\b(tenure|stay|stayed|job|role|position|employer|company|one place|one job)\b")


def _ngrams(words: list[str], table: dict, max_n: int, used: set[int]) -> list[tuple[str, int, int]]:
    """Longest-first matches of ``table`` keys in ``words``; marks consumed positions in ``used``."""
    found = []
    for n in range(min(max_n, len(words)), 0, -1):
        for i in range(len(words) - n + 1):
            if any(j in used for j in range(i, i + n)):
                continue
            key = " ".join(words[i : i + n])
            if key in table and key not in STOPWORDS:
                found.append((key, i, i + n))
                used.update(range(i, i + n))
    return found


def extract_skills(question: str) -> list[str]:
    """Canonical skills named in the question (ordinary-word skills only when capitalised as such)."""
    lex = load_lexicon()
    out: list[str] = []
    for m in lex.skill_pattern.finditer(question):
        canon = canonical_skill(m.group(0))
        if not canon:
            continue
        if normalize_key(m.group(0)) in AMBIGUOUS_SKILLS and m.group(0) != canon:
            continue
        if m.group(0).islower() and len(m.group(0)) <= 2:
            continue
        if len(m.group(0)) == 1 and (question[m.end():m.end() + 1] in "'’" or
                                     re.match(r"\.\s*[A-Z]", question[m.end():])):
            continue  # "C'est", "R's", an initial ("R. Vieira")
        if canon not in out:
            out.append(canon)
    return out


def question_skills(question: str, vocab: CatalogVocabulary) -> list[str]:
    """The alias table's skills in the question, and the skills CVs list written as printed ("AS3").

    The Skills facet offers every listed skill, so "how many know AS3?" must count what the
    facet shows. Where two overlap, the longer written one wins: "C/C++" (listed) over "C"
    and "C++", "Apache Spark" (alias table) over a listed "Apache".
    """
    spans: list[tuple[int, int, str]] = []
    for skill in vocab.skills:
        if skill in question:
            spans += [(m.start(), m.end(), skill) for m in
                      re.finditer(r"(?<![\w+#.])" + re.escape(skill) + r"(?![\w+#])", question)]
    known = extract_skills(question)
    lex_spans = [(m.start(), m.end(), c) for m in load_lexicon().skill_pattern.finditer(question)
                 if (c := canonical_skill(m.group(0))) in known]
    every = sorted(spans + lex_spans, key=lambda x: (x[0] - x[1], x[0]))
    kept: list[tuple[int, int, str]] = []
    for a, b, name in every:
        if not any(a < y and x < b for x, y, _ in kept):
            kept.append((a, b, name))
    chosen = {name for _, _, name in kept}
    return [s for s in known if s in chosen] + [n for _, _, n in sorted(kept) if n not in known]


def extract_languages(question: str) -> list[str]:
    """Spoken languages named in the question, as English names."""
    out: list[str] = []
    for m in load_lexicon().language_re.finditer(question):
        canon = canonical_language(m.group(0))
        if canon and canon not in out:
            out.append(canon)
    return out


def _analytics_op(q: str, plan: Plan) -> str | None:
    if COMPARE_RE.search(q) and len(plan.candidates) >= 2:
        return "compare"
    if plan.candidates and plan.field:
        return "lookup"
    if re.search(r"\b(longest|longer)\b", q) and (TENURE_RE.search(q) or "stayed" in q):
        return "longest_tenure"
    if re.search(r"\b(shortest|shorter)\b", q) and TENURE_RE.search(q):
        return "shortest_tenure"
    most = re.search(r"\b(most|longest)\b", q)
    if most and plan.skill and re.search(r"\b(years|experience|time)\b", q):
        return "skill_years"
    if re.search(r"\b(most experienced|most senior|most (years of )?experience|most years)\b", q):
        return "most_experience"
    if re.search(r"\b(least experienced|most junior|least (years of )?experience|fewest years|least years)\b", q):
        return "least_experience"
    if plan.terms:
        return None  # "how many know COBOL?" with COBOL unknown to the tables: search the text instead
    if COUNT_RE.search(q) and not plan.candidates:
        return "count"
    if LIST_RE.search(q) and plan.filters:
        return "list"
    return None


def parse_question(question: str, vocab: CatalogVocabulary, context_candidates: list[str] | None = None,
                   people: PeopleIndex | None = None, terms: TermIndex | None = None) -> Plan:
    """The deterministic plan for a (standalone) question (``people`` resolves names to persons).

    ``terms`` (the library's words, see :mod:`.typos`) lets a question in a language with no word
    list keep only its content words that a CV could state, and keeps ordinary words from being
    read as names.
    """
    q = normalize_key(question)
    plan = Plan()
    filters: dict = {}
    skills = question_skills(question, vocab)
    langs = extract_languages(question)
    years = extract_years(q)
    levels = [lvl for lvl, pat in QUESTION_LEVELS if pat.search(q)]
    words = text_key(question).split()
    used: set[int] = set()
    mentions: list = []
    if people is not None:
        mentions, ids = resolve_people(question, words, used, vocab, people, skills, langs,
                                       terms.common if terms is not None else frozenset())
        companies = _ngrams(words, vocab.companies, min(vocab.max_words, 6), used)
        plan.persons = disambiguate(mentions, ids, [vocab.companies[k] for k, _, _ in companies], people,
                                    plan.identifying)
        ids = [people.people[p].primary for p in plan.persons]
    else:
        names = _ngrams(words, vocab.names, min(vocab.max_words, 5), used)
        ids = []
        for key, _, _ in names:
            ids += [c for c in sorted(vocab.names[key]) if c not in ids]
        companies = _ngrams(words, vocab.companies, min(vocab.max_words, 6), used)
        ids += _single_names(question, words, used, vocab, ids)
    locations = _ngrams(words, vocab.locations, min(vocab.max_words, 4), used)
    institutions = _ngrams(words, vocab.institutions, min(vocab.max_words, 8), used)
    if not ids and context_candidates and PRONOUNS.search(question):
        ids = list(context_candidates)
        if people is not None:
            plan.persons = [p.person_id for p in people.persons(ids)]
    plan.candidates = ids
    skill_words = {w for s in skills for w in text_key(s).split()}
    # "Business Development", "Microsoft Office Suite": a skill's words are no place or employer
    locations = [x for x in locations if not set(x[0].split()) <= skill_words]
    companies = [x for x in companies if not set(x[0].split()) <= skill_words]
    if skills:
        filters["skills"] = skills
    if langs and not (len(langs) == 1 and re.search(r"\b(cvs?|resumes?) in\b", q)):
        filters["languages"] = langs
    filters.update(years)
    if levels:
        filters["min_degree_level" if OR_HIGHER.search(q) else "degree_level"] = levels[0]
    if companies:
        filters["companies"] = [vocab.companies[k] for k, _, _ in companies]
    if locations:
        filters["location"] = vocab.locations[locations[0][0]]
    if institutions:
        filters["institutions"] = [vocab.institutions[k] for k, _, _ in institutions]
    plan.filters = filters
    plan.skill = skills[0] if skills else None
    for name, pattern in FIELD_WORDS:
        if pattern.search(q) or has_any(q, phrases(f"field_{name}")) or (name == "current" and says_currently(q)):
            plan.field = name
            break
    # content terms: what is left once entities, question words and field words are removed
    skill_keys = {text_key(s) for s in skills} | {text_key(w) for s in skills for w in s.split()} | \
        {w for s in skills for w in text_key(s).split()} | {w for s in skills for w in re.findall(r"\w+", text_key(s))} | \
        {text_key(w) for s in skills for w in re.findall(r"\w+", s)}
    lang_words = {w for w in words if canonical_language(w)}
    plan.terms = [w for i, w in enumerate(words) if i not in used and w not in STOPWORDS and w not in FIELD_TERMS
                  and w not in GENERIC and w not in skill_keys and w not in lang_words and not w.isdigit()
                  and canonical_skill(w) is None and len(w) > 2 and not _is_level_word(w)]
    if people is not None:
        refine(plan, question, words, used, people, mentions, skills, langs, levels)
    if levels and (higher := OR_HIGHER.search(q)):  # "a master's or higher": the bound's words are not evidence
        said = set(higher.group(0).split())
        plan.terms = [t for t in plan.terms if t not in said]
    if years:  # "más de 10 años", "ponad 10 lat", "10年以上": the bound is a filter, its words are not evidence
        said = years_phrase_words(question)
        plan.terms = [t for t in plan.terms if t not in said]
    if terms is not None and in_unlisted_language(question, plan.terms, terms.known):
        plan.terms = [t for t in plan.terms if t in terms.known]
    said = re.sub(r"[\W_]+", "", "".join(plan.terms))
    if plan.terms and not plan.candidates and not plan.persons and said in vocab.plain_skills:
        # "how many know administration?", "… tool-calling?": a skill some CV lists, all the question's content
        filters.setdefault("skills", []).append(vocab.plain_skills[said])
        plan.terms = []
    plan.op = plan.intent.get("op") or _analytics_op(q, plan)
    if plan.field:  # "correo electronico", "sprachen", "obecnie": the field asked, not evidence
        said = {w for p in (*phrases(f"field_{plan.field}"), *(phrases("currently") if plan.field == "current" else ()))
                for w in p.split()}
        plan.terms = [t for t in plan.terms if t not in said]
    if plan.op == "lookup" and plan.persons and not plan.concepts and len(plan.terms) <= 2 and \
            plan.field not in (None, "profile", "employers", "current"):
        plan.terms = []  # "what languages is Ana fluent in?", "best phone to call Ben on": the stored field answers
    if plan.op == "lookup" and (plan.terms or plan.concepts):
        plan.op = None  # "what is Ana's salary expectation?": not a field we hold, search her CV
    plan.route = _route(q, plan, words)
    return plan


def _single_names(question: str, words: list[str], used: set[int], vocab: CatalogVocabulary,
                  ids: list[str]) -> list[str]:
    """A single capitalised surname / first name that identifies exactly one candidate."""
    out: list[str] = []
    for i, w in enumerate(words):
        if i in used or w in STOPWORDS or len(w) < 3 or len(vocab.name_tokens.get(w, ())) != 1:
            continue
        if re.search(r"(?<!\w)" + re.escape(w) + r"(?!\w)", normalize_key(question)) and \
                any(t[:1].isupper() and normalize_key(t) == w for t in re.findall(r"[\w'-]+", question)) and \
                canonical_skill(w) is None and canonical_language(w) is None:
            out += [c for c in vocab.name_tokens[w] if c not in ids and c not in out]
            used.add(i)
    return out


def _is_level_word(w: str) -> bool:
    return any(p.fullmatch(w) for _, p in QUESTION_LEVELS)


def _route(q: str, plan: Plan, words: list[str]) -> str:
    if plan.op:
        return "analytics"
    has_entities = bool(plan.filters or plan.candidates)
    if plan.persons and (plan.terms or plan.concepts):
        return "hybrid_filtered"  # the named people's own CV lines answer it (scoped extractive)
    if has_entities and not plan.terms and not plan.concepts:
        if plan.candidates and not plan.filters:
            plan.op, plan.field = "lookup", plan.field or "profile"
            return "analytics"
        return "metadata"
    if has_entities:
        return "hybrid_filtered"
    if re.search(r"[\u3040-\u30ff\u3400-\u9fff]", q):
        return "hybrid"  # CJK questions are not split into words the domain check could read
    if not any(w in DOMAIN for w in words) and not about_people(words) and (not plan.terms or OFF_TOPIC.search(q)):
        return "out_of_scope"
    return "hybrid"


def looks_like_unknown_name(question: str, plan: Plan) -> str | None:
    """A capitalised two-word phrase in a person question that matched no candidate ("Zoe Quill's phone")."""
    if plan.candidates or not plan.field:
        return None
    for m in re.finditer(r"\b([A-ZÁÉÍÓÚÑÄÖÜ][\w'-]+(?:\s+[A-ZÁÉÍÓÚÑÄÖÜ][\w'-]+)+)", question):
        phrase = m.group(1)
        if re.search(r"\b(?:at|for|by|in|from|with|bei|en|chez|presso|em)\s+(?:the\s+)?$", question[:m.start()],
                     re.IGNORECASE):
            continue  # "worked at Istituto Comprensivo Cividale": an employer or a place, not a person
        entity_words = {w for key in ("companies", "institutions") for v in plan.filters.get(key, [])
                        for w in text_key(v).split()} | set(text_key(plan.filters.get("location") or "").split())
        if set(text_key(phrase).split()) & entity_words or load_lexicon().institution_re.search(phrase):
            continue  # "Bogazici University", "Acme Corp": an entity the question names, not a person
        if not any(canonical_skill(w) or canonical_language(w) for w in phrase.split()) and \
                phrase.split()[0].lower() not in STOPWORDS:
            return re.sub(r"'s$", "", phrase)
    return None
