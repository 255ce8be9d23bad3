"""Which computed answer a question wants: a relation of named people, a comparison, or an aggregate.

Rules over the folded question (English plus the cue words of the CVs' other languages),
applied after the people and employers it names are known. ``None`` means no computed
route applies: the question is answered from the CV text (scoped extractive answer) or
by the filter routes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from cvrag_desktop.assistant.understand.question import phrase_alternation

# word edges for folded Latin text that still work inside CJK text (where every character is a word character)
_B = r"(?<![a-z0-9])"
_E = r"(?![a-z0-9])"


def _re(words: str) -> re.Pattern:
    return re.compile(_B + "(" + words + ")" + _E)


BEFORE = _re(phrase_alternation("before"))  # every language's words: resources/question_words.yaml
AFTER = _re(phrase_alternation("after"))
LATEST = _re(r"most recent|latest|last (job|role|position|employer|company)|newest (job|role)|current (job|role|position|"
             r"employer|company|title)|currently|now|these days|aktuell\w*|derzeit\w*|jetzig\w*|actual|actualmente|"
             r"actuel\w*|atual\w*|attual\w*|現在|目前|现在|当前|上一份|最近一份|前一份|直近|" + phrase_alternation("currently"))
FIRST = _re(r"first (job|role|position|employer|company)|earliest (job|role|position)|start(ed)? (his|her|their) "
            r"career|erste[nrs]? (job|stelle|arbeitgeber)|primer (trabajo|empleo)|premier (emploi|poste)|"
            r"primeiro (emprego|trabalho)|primo (lavoro|impiego)|第一份")
ROLE_WORDS = re.compile(r"(job|role|position|employer|company|title|work|poste|emploi|travail|entreprise|stelle|"
                        r"arbeitgeber|firma|beruf|puesto|cargo|trabajo|empresa|emprego|trabalho|lavoro|ruolo|"
                        r"prac\w*|stanowisk\w*|pracodaw\w*|werkgever|baan|functie|bedrijf|werkt|arbeitet|trabaja|"
                        r"travaille|lavora|trabalha|"
                        r"posizione|azienda|职位|工作|公司|勤務先|職|会社)")
WHERE_WORK = re.compile(r"(where|which company|what company|who .{0,30} work for|哪家公司|什么公司|哪个公司|在哪|どこ|"
                        r"gdzie pracuje|w jakiej firmie|waar werkt|bij welk\w* bedrijf|"
                        r"wo arbeitet|bei welche\w*|donde trabaja|en que empresa|ou travaille|dans quelle|"
                        r"onde trabalha|em que empresa|dove lavora|in quale)")
STUDY = _re(r"stud(y|ied|ies|ying)|degrees?|universit(y|ies)|college|school|graduat\w*|educat\w*|institution|"
            r"master'?s?|bachelor'?s?|ph ?d|doctorate|msc|bsc|mba|studiert\w*|studium|abschluss|hochschule|"
            r"estudi\w*|titulo|universidad|etudi\w*|diplome|universite|formacao|curso|laurea|universita|"
            r"学历|学位|大学|毕业|学校|学歴")
COMPARE = _re(r"compare|comparison|versus|vs|more|less|better|stronger|fits best|fit best|best fit|best suited|"
              r"longer|longest|older|younger|most|highest|top|between|"
              r"rank|ranking|order|who is the (most|best)|vergleich\w*|compar\w*|mehr|mas|plus|mais|piu|比较|更")
# "where did X get the doctorate": a place of study asked (folded text)
WHERE_STUDIED = _re(r"where|wo|woher|an welcher|welche[rsn]? (uni\w*|hochschule)|which (university|school|college|"
                    r"institution)|what (university|school|college|institution)|ou|donde|en que universidad|dove|"
                    r"in quale|onde|em que universidade|waar|aan welke|gdzie|na jakiej|哪|どこ")
RANK = _re(r"rank|ranking|order|sort")
SENIOR = _re(r"senior|seniority|junior|experienced|erfahren\w*|senioridad|ancienne\w*|资深")
YEARS = _re(r"years|experience|longer|working|worked|erfahrung|experiencia|experience|experiencia|anos|anni|经验|经历")
PUBLISH = _re(r"publish\w*|publications?|papers?|veroffentlich\w*|publicacion\w*|publicac\w*|pubblica\w*|论文")
EDUCATION = _re(r"education|educational|studies|degrees?|academic|ausbildung|bildung|formacion|formation|formacao|"
                r"istruzione|学历|教育")
COUNT = _re(r"how many|number of|count|wie viele|cuantos|cuantas|combien|quantos|quantas|quanti|quante|多少|几")
CURRENT_START = re.compile(_B + r"current (job|role|position|employer)\w*" + r".{0,40}" +
                           r"(start\w*|begin\w*|began|earliest|oldest|longest|most recent\w*|latest|newest)|" +
                           _B + r"(start\w*|began|begun|joined|took up)( \w+){0,3} current (job|role|position|"
                           r"employer)")
MOST_OF = re.compile(_B + r"most (certified|certifications?|certificates?|languages|skills|degrees|qualified|"
                     r"publications|published|awards)" + _E)
GRADUATED = _re(r"graduat\w*|degrees? (is|was) the|got (their|his|her) degree|finished (their|his|her) (studies|degree)|abschluss|egres\w*|diplom\w*|formou|laurea\w*|"
                r"毕业")
EARLY = _re(r"earliest|first|oldest|longest ago|longest time ago|long ago|least recent\w*|fruhest\w*|primero|premier|primeiro|primo|最早")
LATE = _re(r"most recent\w*|latest|last|newest|(?<!least )recently|spatest\w*|ultimo|dernier|mais recente|piu recente|最近|最晚")
MOST_EMPLOYERS = re.compile(_B + r"(most|largest number of|highest number of|greatest number of|meisten|mas|plus de)"
                            r"( \w+){0,2} (employers|companies|jobs|firms|arbeitgeber|empresas|entreprises|aziende)")
SAME_EMPLOYER = re.compile(_B + r"(same (company|employer|firm|organi[sz]ation)|worked together|colleagues|"
                           r"(employers?|compan(y|ies)) in common|common (employers?|compan(y|ies))|"
                           r"shared? (an? |the )?(\w+ )?(employers?|compan(y|ies))|both worked|"
                           r"(employers?|compan(y|ies)).{0,30}(more than one|several|multiple|two or more|two) "
                           r"(cvs?|candidates?|people|persons?|resumes?|profiles?))")
DUPLICATES = re.compile(_B + r"(twice|two (cvs|files|resumes|documents)|more than one (cv|file|resume|document)|"
                        r"duplicates?|duplicated|same person|several (cvs|files)|multiple (cvs|files|resumes))" + _E)
SHARED_CONTACT = re.compile(r"(share|shared|same|common|identical)\w*.{0,30}(phone|e-?mail|number|address)"
                            r"|(phone|e-?mail|number|address)\w*.{0,30}(shared|in common|same|twice)")
CV_DATE = re.compile(r"(cv|resume|profile|document)s?\b.{0,40}(updated|dated|written|date|newest|oldest|most recent)"
                     r"|(updated|written|dated) (most|least) recently|last updated|most recently updated")
MENTION = _re(r"mention\w*|list\w*|include\w*|contain\w*|refer\w*|nennen|erwahn\w*|mencion\w*|mentionn\w*|menciona\w*|"
                r"menzion\w*|提到|提及")


@dataclass
class Intent:
    """A computed operation and its arguments."""

    op: str
    persons: list[str] = field(default_factory=list)
    employer: str | None = None
    level: str | None = None
    dimension: str | None = None
    earliest: bool = True
    phrase: str | None = None
    count: bool = False  # "how many …": a count, not a list


def person_intent(q: str, persons: list[str], employers: list[str], level: str | None,
                  asks_more: bool = False) -> Intent | None:
    """A relation of one named person: neighbour employer, role at an employer, first/latest role, degrees.

    ``asks_more``: the question has content words beyond role words ("which company did X intern
    at"), so "where does X work" does not reduce it to the latest role.
    """
    if employers:
        employer = employers[0]
        if BEFORE.search(q):
            return Intent("before", persons, employer=employer)
        if AFTER.search(q):
            return Intent("after", persons, employer=employer)
        return Intent("role_at", persons, employer=employer)
    if FIRST.search(q):
        return Intent("first_role", persons)
    if (re.search(_B + r"(most recent|latest|last|newest)" + _E, q) or LATEST.search(q) or
            (WHERE_WORK.search(q) and not asks_more)) and ROLE_WORDS.search(q):
        return Intent("latest_role", persons)
    if level or (STUDY.search(q) and re.search(_B + r"(where|which|what|wo|welche\w*|donde|cual\w*|ou|quel\w*|onde|"
                                                r"qual\w*|dove|哪)" + _E, q) and not re.search(r"thes[ie]s|arbeit|tesi",
                                                                                            q)):
        return Intent("degrees", persons, level=level)
    return None


def compare_intent(q: str, persons: list[str], topic: list[str]) -> Intent | None:
    """Two or more named people compared or ranked, and on what."""
    if len(persons) < 2 or not (COMPARE.search(q) or " or " in f" {q} " or RANK.search(q)):
        return None
    if PUBLISH.search(q):
        return Intent("compare", persons, dimension="publications")
    if EDUCATION.search(q) and not topic:
        return Intent("compare", persons, dimension="education")
    if topic:
        return Intent("compare", persons, dimension="topic")
    if SENIOR.search(q):
        return Intent("compare", persons, dimension="seniority")
    if YEARS.search(q):
        return Intent("compare", persons, dimension="years")
    return Intent("compare", persons, dimension="profile")


def aggregate_intent(q: str) -> Intent | None:
    """An aggregate over every person that the stored filters do not express."""
    if CURRENT_START.search(q):
        return Intent("current_start", earliest=not LATE.search(q) or bool(EARLY.search(q)))
    if GRADUATED.search(q) and (EARLY.search(q) or LATE.search(q)):
        return Intent("graduation", earliest=bool(EARLY.search(q)))
    if MOST_EMPLOYERS.search(q):
        return Intent("most_employers")
    if m := MOST_OF.search(q):
        word = m.group(1)
        what = "certifications" if word.startswith("certi") else "publications" if word.startswith("publi") else \
            "degrees" if word in ("degrees", "qualified") else word
        return Intent("most_of", phrase=what)
    if SAME_EMPLOYER.search(q):
        return Intent("shared_employers")
    if SHARED_CONTACT.search(q):
        return Intent("shared_contacts")
    if DUPLICATES.search(q):
        return Intent("duplicates")
    if CV_DATE.search(q):
        return Intent("cv_date", earliest=bool(EARLY.search(q)) and not LATE.search(q))
    return None
