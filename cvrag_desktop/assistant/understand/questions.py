"""The people a question names, the words it asks about, and the computed answer it wants.

Called by the router when a :class:`~.people.PeopleIndex` is available: names resolve to
*people* (namesakes told apart by an employer written in the question; "the Nexus AI
CTO" resolves through the employer), content terms drop every language's question
words and the entities already understood, concepts are recognised, and a computed
relation, comparison or aggregate is chosen when one applies.
"""

from __future__ import annotations

import re

from cvrag_desktop.assistant.facts.certificates import asks_certificate, library_shorts, named_short
from cvrag_desktop.assistant.facts.people import PeopleIndex, find_mentions
from cvrag_desktop.assistant.facts.relations import matches_employer
from cvrag_desktop.assistant.facts.work_fields import field_words
from cvrag_desktop.assistant.understand import intents
from cvrag_desktop.assistant.understand.plan import DOMAIN, FIELD_TERMS, GENERIC, STOPWORDS, Plan
from cvrag_desktop.assistant.understand.question import (
    concept_question_words,
    concepts_in,
    content_words,
    matched_phrases,
    question_language,
    stopwords,
)
from cvrag_desktop.assistant.understand.vocabulary import CatalogVocabulary
from cvrag_desktop.assistant.understand.work_intents import work_intent
from cvrag_desktop.text.companies import company_core
from cvrag_desktop.text.fold import fold
from cvrag_desktop.text.keys import text_key
from cvrag_desktop.text.names import name_key
from cvrag_desktop.text.vocab.degrees import QUESTION_LEVELS
from cvrag_desktop.text.vocab.languages import canonical_language
from cvrag_desktop.text.vocab.places import countries_of_places, country_in_text
from cvrag_desktop.text.vocab.skills import canonical_skill

# verbs of speaking: a spoken-language filter already holds what they ask
SPEAK = {"speak", "speaks", "speaking", "spoken", "spricht", "sprechen", "spreche", "habla", "hablan", "hablar",
         "parle", "parlent", "parler", "fala", "falam", "falar", "parla", "parlano", "parlare", "spreekt", "spreken",
         "说", "会说", "話せる", "話す"}
LIST_QUESTION = re.compile(r"^(who|which|whom|has anyone|have any|does anyone|do any|is anyone|are any|anyone|any "
                           r"candidates?|list|show|find|how many|wer|welche|quien|quienes|cuales|qui|quels|quelles|"
                           r"quem|quais|chi|quali)\b")
DIMENSION_WORDS = {"senior", "seniority", "junior", "experienced", "published", "publish", "publications",
                   "publication", "papers", "paper", "education", "educational", "academic", "rank", "fits", "best",
                   "fit", "suited", "degree", "degrees", "study", "studies", "studied", "university", "universities",
                   "school", "college", "where", "industry", "years", "year", "experience", "more",
                   "work", "worked", "working", "career", "longer", "longest", "older", "oldest", "most", "highest"}


EDUCATION_CUE = re.compile(r"(stud(y|ied|ies|ying)|educat\w*|universit\w*|school|college|degree|graduat\w*|alumni|"
                           r"studiert\w*|studium|estudi\w*|etudi\w*|formacao|formad\w*|laurea\w*|学|留学)")
_PLACE_PREP = re.compile(r"(^|\s)(in|from|within|inside|across|aus|im|en|em|no|na|nel|nella|au|aux|a|à|de|da|do|"
                         r"del|della|the)\s*$")


def country_intent(question: str, plan: Plan) -> intents.Intent | None:
    """"Who studied in Germany?", "France-based candidates": a country, written as a place, not as a name."""
    words = question.split()
    for i in range(len(words)):
        for n in (3, 2, 1):
            chunk = " ".join(words[i:i + n])
            found = country_in_text(chunk.strip("?!.,;:()¿¡"))
            if not found or country_in_text(" ".join(words[i:i + n - 1]).strip("?!.,;:()¿¡")):
                continue
            before = fold(" ".join(words[max(0, i - 2):i]))
            after = fold(" ".join(words[i + n:i + n + 1]))
            as_place = _PLACE_PREP.search(before) or re.search(r"-?based|born|educated", fold(chunk) + " " + after) \
                or re.search(r"[\u3400-\u9fff]", chunk)
            if as_place:
                plan.filters.pop("location", None)
                education = bool(EDUCATION_CUE.search(fold(question)))
                plan.terms = [t for t in plan.terms if not country_in_text(t)]
                return intents.Intent("in_country", phrase=found[0], dimension="education" if education
                                      else "location")
    return None


def _ignore_words(skills: list[str], langs: list[str], lang: str | None = None) -> set[str]:
    """Words that are never names or content: question words (of ``lang`` and English, or of every
    language), domain and field words, speaking verbs, and the skills and languages asked about."""
    words = set(STOPWORDS) | set(stopwords(lang)) | DOMAIN | FIELD_TERMS | GENERIC | SPEAK
    words |= {w for s in skills for w in text_key(s).split()} | {w for s in langs for w in text_key(s).split()}
    words |= {text_key(w) for s in skills for w in re.findall(r"\w+", s)}  # "D3.js" is no question of "d3"
    return words


def resolve_people(question: str, words: list[str], used: set[int], vocab: CatalogVocabulary, people: PeopleIndex,
                   skills: list[str], langs: list[str], common: frozenset[str] = frozenset()) -> tuple[list, list[str]]:
    """Mentions of people in the question (marking their words used) and the person ids they may mean.

    ``common``: words many CVs use; found only on a CV's top lines, they are not an unread name.
    """
    ignore = _ignore_words(skills, langs, question_language(question)) | concept_question_words(concepts_in(question))
    ignore |= {w for w in words if canonical_skill(w) or canonical_language(w)}
    ignore |= field_words(question)  # "banking", "nurses": a field of work, not a word of someone's name
    if asks_certificate(fold(question)) and (short := named_short(fold(question), library_shorts(people))):
        ignore |= set(fold(short).split())  # "a CCRN certificate": a credential, not a name on a CV's top lines
    # employers, places and schools the catalog knows are not names read off a CV's top lines
    ignore |= {w for table in (vocab.companies, vocab.locations, vocab.institutions) for key in table
               for w in key.split() if f" {key} " in f" {' '.join(words)} "}

    # "Brazil", "Lyon", "hong kong": places, not names
    ignore |= {w for n in (1, 2, 3) for i in range(len(words) - n + 1)
               if countries_of_places(" ".join(words[i:i + n])) for w in words[i:i + n]}
    mentions = find_mentions(question, people, ignore, common)
    ids: list[str] = []
    for m in mentions:
        parts = m.text.split()
        for i in range(len(words) - len(parts) + 1):
            if words[i:i + len(parts)] == parts:
                used.update(range(i, i + len(parts)))
                break
        ids += [p for p in m.person_ids if p not in ids]
    return mentions, ids


def disambiguate(mentions: list, ids: list[str], companies: list[str], people: PeopleIndex,
                 identifying: list[str] | None = None) -> list[str]:
    """Narrow namesakes by an employer written in the question ("the John Doe who works at Stripe").

    Employers that did the narrowing are appended to ``identifying``: they say who, not what is asked.
    """
    out: list[str] = []
    for m in mentions:
        pids = m.person_ids
        if len(pids) > 1 and companies:
            narrowed = [pid for pid in pids if any(matches_employer(r.get("company"), c)
                                                   for d in people.people[pid].documents
                                                   for r in people.doc(d).record.get("experiences", [])
                                                   for c in companies)]
            if narrowed and identifying is not None:
                identifying += [c for c in companies if c not in identifying]
            pids = narrowed or pids
        out += [p for p in pids if p not in out]
    return out


FIELD_CONCEPTS = {"certification": "certifications", "phone": "phones", "email": "emails", "address": "location"}


def _held_elsewhere(cid: str, plan: Plan, people: PeopleIndex, levels: list[str]) -> bool:
    """A concept a filter or a stored field already answers ("Anyone with a PhD?", "Park's certifications")."""
    if cid == "doctorate" and "phd" in levels and not plan.persons:
        return True
    if cid == "address" and plan.field in ("email", "phone"):
        return True  # "adres e-mail", "adresse e-mail": an e-mail address, not where someone lives
    field = FIELD_CONCEPTS.get(cid)
    if field and plan.persons:
        return all(people.doc(people.people[p].primary).record.get(field) for p in plan.persons
                   if p in people.people)
    return False


def _is_level(word: str) -> bool:
    return any(pat.fullmatch(word) for _, pat in QUESTION_LEVELS)


def own_employers(people: PeopleIndex, persons: list[str], words: list[str]) -> list[str]:
    """Employers of the named people written (perhaps shortened) in the question ("Acme Securities",
    "coursera"): a role's employer whose leading significant words all appear in the question."""
    asked = set(words)
    best: list[tuple[int, str]] = []
    for pid in persons:
        for d in people.people[pid].documents:
            for r in people.doc(d).record.get("experiences", []):
                if not r.get("company"):
                    continue
                key = [w for w in company_core(text_key(r["company"])).split() if w not in stopwords()]
                n = 0
                while n < len(key) and key[n] in asked:
                    n += 1
                if n and len(key[0]) >= 3:
                    best.append((n, r["company"]))
    best.sort(key=lambda t: -t[0])
    return [best[0][1]] if best else []


def people_at(people: PeopleIndex, companies: list[str]) -> list[str]:
    """Person ids whose CVs list one of the employers."""
    out = []
    for pid, p in people.refresh().people.items():
        recs = [people.doc(d).record for d in p.documents]
        if any(matches_employer(r.get("company"), c) for rec in recs for r in rec.get("experiences", [])
               for c in companies):
            out.append(pid)
    return out


def refine(plan: Plan, question: str, words: list[str], used: set[int], people: PeopleIndex, mentions: list,
           skills: list[str], langs: list[str], levels: list[str]) -> None:
    """Person ids, content terms, concepts and the computed intent of ``plan`` (in place)."""
    q = fold(question)
    # a concept written only inside a skill's name is the skill ("Who knows Performance Management?")
    skill_text = " ".join(fold(s) for s in skills)
    found = [c for c in concepts_in(question) if not _held_elsewhere(c.cid, plan, people, levels)
             and not all(f" {p.rstrip('*')}" in f" {skill_text}" for p in matched_phrases(question, c))]
    plan.concepts = [c.cid for c in found]
    companies = list(plan.filters.get("companies", []))
    persons = _scope(plan, q, companies, people)
    words_asked = _content_terms(plan, question, words, used, people, persons, companies, found, skills, langs,
                                 levels)
    intent = _choose_intent(plan, q, question, people, mentions, persons, companies, found, words_asked, skills,
                            levels)
    if intent is not None:
        plan.intent = {"op": intent.op, "persons": intent.persons or persons, "employer": intent.employer,
                       "level": intent.level, "dimension": intent.dimension, "earliest": intent.earliest,
                       "phrase": intent.phrase, "count": intent.count}


def _scope(plan: Plan, q: str, companies: list[str], people: PeopleIndex) -> list[str]:
    """The people the question is about (named, or named through their employer)."""
    persons = list(plan.persons)
    if not persons and companies and not LIST_QUESTION.search(q) and not intents.COUNT.search(q):
        at = people_at(people, companies)
        if 0 < len(at) <= 3:  # "the Nexus AI CTO's thesis": the employer names the person
            persons = at
    plan.persons = persons
    if persons:
        plan.candidates = [people.people[p].primary for p in persons]
    return persons


def _content_terms(plan: Plan, question: str, words: list[str], used: set[int], people: PeopleIndex,
                   persons: list[str], companies: list[str], found: list, skills: list[str], langs: list[str],
                   levels: list[str]) -> list[str]:
    """Set ``plan.terms`` (what the evidence must carry); return every content word of the question."""
    ignore = _ignore_words(skills, langs) | concept_question_words(found)
    ignore |= {w for i, w in enumerate(words) if i in used}
    ignore |= {w for p in persons for w in name_key(people.people[p].name).split()}
    ignore |= {w for c in companies for w in text_key(c).split()}
    if plan.filters.get("location"):
        ignore |= set(text_key(plan.filters["location"]).split())
    asked = question
    for p in persons:  # a CJK name is not a content word ("你的大名在哪家公司实习过")
        name = people.people[p].name
        asked = asked.replace(name, " ").replace(name.replace(" ", ""), " ").replace(name.replace(" ", "\u3000"), " ")
    words_asked = content_words(asked)
    level_words = {w for w in words_asked if _is_level(w)}
    plan.terms = [w for w in words_asked if w not in ignore and len(w) > 1 and w not in level_words
                  and not ("-" in w and all(p in ignore for p in w.split("-") if p))
                  and canonical_skill(w) is None and not (langs and canonical_language(w))]
    # "What's Jan's master thesis about?": the level describes what is asked, not whom
    if persons and plan.filters.pop("degree_level", None) and levels:
        plan.terms += [w for w in words_asked if w in level_words]
    return words_asked


def _generic() -> set[str]:
    return set(GENERIC)


def _choose_intent(plan: Plan, q: str, question: str, people: PeopleIndex, mentions: list, persons: list[str],
                   companies: list[str], found: list, words_asked: list[str], skills: list[str],
                   levels: list[str]) -> intents.Intent | None:
    """A comparison of named people, a relation of one, or an aggregate over everyone (None: none applies)."""
    level = levels[0] if levels else None
    intent = None
    named = [m for m in mentions if set(m.person_ids) & set(persons)]
    if len(persons) >= 2 and len(named) >= 2:  # two names written, not one name several people share
        names = {w for p in persons for w in name_key(people.people[p].name).split()}
        generic = _ignore_words(skills, []) - {fold(s) for s in skills} - {w for s in skills for w in fold(s).split()}
        topic = [w for w in words_asked if w not in DIMENSION_WORDS and w not in names and w not in generic
                 and len(w) > 1 and not any(w in text_key(c).split() for c in companies)]
        topic += [fold(s) for s in skills if fold(s) not in {t.replace("-", " ") for t in topic}]
        intent = intents.compare_intent(q, persons, topic)
        if intent:
            intent.phrase = " ".join(topic)
    if intent is None and persons:  # "how many years did X spend in banks / at Y and Z?"
        intent = work_intent(question, plan, persons, people, words_asked, skills, _generic())
    if intent is None and persons:
        own = [c for c in companies if c not in plan.identifying and set(people_at(people, [c])) & set(persons)]
        own = own or ([] if plan.identifying else own_employers(people, persons, words_asked))
        if own:
            plan.terms = [t for t in plan.terms if t not in {w for c in own for w in text_key(c).split()}]
        if level == "phd" and intents.WHERE_STUDIED.search(q) and {c.cid for c in found} <= {"thesis", "doctorate"}:
            intent = intents.Intent("degrees", persons, level="phd")  # "Wo hat X promoviert?": where, not the thesis
        elif not [c for c in found if c.cid != "doctorate"]:
            other = [t for t in plan.terms if intents.ROLE_WORDS.sub("", t).strip()]
            intent = intents.person_intent(q, persons, own, level, asks_more=bool(other))
    if intent is None and not persons:
        intent = intents.aggregate_intent(q) or country_intent(question, plan) or \
            work_intent(question, plan, persons, people, words_asked, skills, _generic())
        if intent is None and intents.COUNT.search(q) and intents.MENTION.search(q) and plan.terms and not skills:
            intent = intents.Intent("mention_count", phrase=" ".join(plan.terms))
        if intent is None and plan.filters.get("degree_level") and plan.terms:
            # "a maths master's", "a master's in computer science": the subject of a degree of that level
            intent = intents.Intent("degree_subject", level=plan.filters["degree_level"], phrase=" ".join(plan.terms))
    return intent
