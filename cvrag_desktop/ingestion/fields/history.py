"""Turn segmented entries into ``Experience`` and ``Education`` records.

Header pieces are labelled by vocabulary: job-title words make a title, company
suffixes (Inc., GmbH, S.L.) or institution words make an employer, "City, ST"
shapes make a location. When vocabulary cannot tell, the template's order decides
(title first, then employer), which is the common convention.
"""

from __future__ import annotations

import itertools
import re

from cvrag_desktop.domain import Experience
from cvrag_desktop.ingestion.fields.cells import is_location, split_commas, strip_sentence_period
from cvrag_desktop.ingestion.fields.dates import find_date_ranges
from cvrag_desktop.ingestion.fields.entries import _AT, BULLET, RawEntry, header_fragments, segment_entries
from cvrag_desktop.ingestion.fields.firm_slot import (
    Slot,
    firm_candidates,
    pick_by_slot,
    section_slot,
    slot_of,
)
from cvrag_desktop.ingestion.fields.identity.names import NAME_PARTICLES
from cvrag_desktop.ingestion.fields.role_text import split_flat_header
from cvrag_desktop.ingestion.layout.prose_roles import prose_roles
from cvrag_desktop.ingestion.layout.reading_order import TextLine
from cvrag_desktop.text.keys import normalize_key
from cvrag_desktop.text.vocab.lexicon import load_lexicon
from cvrag_desktop.text.vocab.places import country_in_text, is_place_name
from cvrag_desktop.text.vocab.skills import canonical_skill

Piece = tuple[str, int]  # text, line index


def _pieces(lines: list[TextLine], entry: RawEntry, at_convention: bool = False
            ) -> tuple[list[Piece], list[Piece], list[Piece], list[Piece]]:
    """Split header fragments into (title-ish "at" pairs, plain pieces, locations, the firms named after "at").

    ``at_convention``: the section prints its roles "Title at Firm", so an "at" splits a
    header even when the title has no known title word ("Content expert at Firm").
    """
    lex = load_lexicon()
    forced_titles: list[Piece] = []
    plain: list[Piece] = []
    locations: list[Piece] = []
    at_firms: list[Piece] = []
    for text, i in header_fragments(lines, entry):
        text = _STATUS_LEAD.sub("", text)  # "Retired, Royal Navy": the status is neither title nor employer
        if labelled := _ROLE_LABEL.match(text):  # "Stanowisko: Tester", "Employer: Acme": the label says
            value = (labelled.group("value").strip(), i)
            if labelled.group("title"):
                forced_titles.append(value)
            else:
                plain.insert(0, value)  # the employer piece others are weighed against
            continue
        m = _AT.match(text)
        if m and (lex.title_re.search(m.group(1)) or re.search(r"\s@\s", text)
                  or (at_convention and m.group(2)[:1].isupper())):  # " @ " needs no title word
            forced_titles.append((m.group(1).strip(), i))
            rest = split_commas(m.group(2))
            firm = 1  # "Castillo, Stephens and Mason": the firm runs on until a place
            while firm < len(rest) and not (is_location(rest[firm]) or _is_place(rest[firm].split(",")[0].strip())):
                firm += 1
            plain.append((", ".join(rest[:firm]), i))
            at_firms.append(plain[-1])
            locations.extend((p, i) for p in rest[firm:] if is_location(p) or _is_place(p))
            continue
        if is_location(text):
            locations.append((text, i))
            continue
        flat = split_flat_header(text) if "\t" not in lines[i].text and find_date_ranges(lines[i].text) else None
        if flat is not None:
            title, firm, place = flat
            forced_titles.append((title, i))
            plain.append((firm, i))
            locations.append((place, i))
            continue
        parts = []
        for p in split_commas(text):
            where = re.match(r"^(.+?)\s*[(（]([^()（）]+)[)）]$", p)
            if where and (is_location(where.group(2)) or _is_place(where.group(2).split(",")[0].strip())):
                locations.append((where.group(2).strip(), i))  # "Acme (Austin, TX)": the place in brackets
                p = where.group(1)
            parts.append(strip_event(p))
        parts = [p for p in parts if (len(p) > 3 or p[:1].isupper() or not p.isascii())
                 and normalize_key(p.rstrip(".")) not in lex.months  # a stray month from a wrapped date
                 and not _STATUS.match(p.strip())]
        for n, part in enumerate(parts):
            trailing_city = n == len(parts) - 1 and n > 0 and (len(part.split()) <= 2 or _is_place(part)) \
                and part[:1].isupper() \
                and not lex.company_re.search(part) and not lex.title_re.search(part) and not lex.institution_re.search(part) \
                and (n >= 2 or _is_place(part) or not lex.title_re.search(parts[0]))  # "Engineer, Dehmel": the firm
            (locations if is_location(part) or trailing_city else plain).append((part, i))
    return forced_titles, plain, locations, at_firms


# A header printed as "Label: value" names what the value is, in the CV's language.
_ROLE_LABEL = re.compile(
    r"^(?:(?P<title>position|job title|title|role|designation|stanowisko|funkcja|functie|functietitel|funktion|"
    r"t[äa]tigkeit|poste|fonction|intitul[ée] du poste|cargo|puesto|posizione|ruolo|mansione|fun[çc][ãa]o)"
    r"|(?P<firm>company|employer|organi[sz]ation|firma|pracodawca|werkgever|bedrijf|arbeitgeber|unternehmen|"
    r"entreprise|employeur|soci[ée]t[ée]|empresa|empleador|azienda|datore di lavoro))\s*[:：]\s*(?P<value>\S.{1,80})$",
    re.IGNORECASE)


def strip_event(text: str) -> str:
    """Drop rirekisho event words ("株式会社X入社" → "株式会社X")."""
    return re.sub(r"\s*(?:入社|退職|入学|卒業|修了|中退|就職)$", "", text).strip()


_PARTICLES = NAME_PARTICLES | {"el"}  # "da Conceição Fernandes", "el Corte Inglés"
_ACTION = re.compile(r"^(?:created|developed|built|implemented|designed|led|managed|worked|maintained|improved|"
                     r"ported|wrote|responsible|participated|collaborated|contributed|helped|assisted|supported|"
                     r"coordinated|delivered|introduced|migrated|automated|optimi[sz]ed|reduced|increased|achieved|"
                     r"performed|conducted|analy[sz]ed|tested|deployed|integrated|trained|mentored)\b", re.I)
_LABELLED = re.compile(r"^[^:]{1,25}\s:\s|^[^:]{1,25}:\s")
_DATED = re.compile(r"^\s*(\d{1,2}[/.]\d{1,2}[/.]\d{2,4}|\d{4}\s*[-–/]|\d{1,2}/\d{4})")


def plausible_employer(text: str) -> bool:
    """Can this piece of a role header be the employer? Not a bullet, a sentence, a "Label: value"
    line or a dated line ("• Implemented …", "Tech stack: Elasticsearch", "29/11/2021 AWS Certified …")."""
    t = text.strip()
    if not t or re.match(r"^[•·▪●◦‣■➤◆*–—-]\s", t) or len(t.split()) > 8:
        return False
    if t[:1].islower() and " " in t and t.split()[0] not in _PARTICLES:
        return False  # a sentence fragment; "eBay", "otulea.uni-bremen.de", "da Conceição Fernandes" stay
    if _ACTION.match(t) and len(t.split()) >= 3:
        return False  # an unbulleted achievement line ("Ported the game to Steam")
    return not (_LABELLED.match(t) or _DATED.match(t))


def _is_country(text: str) -> bool:

    return bool(country_in_text(text))


def _is_place(text: str) -> bool:

    return is_place_name(text)


def build_experience(lines: list[TextLine], entry: RawEntry, at_convention: bool = False,
                     firm_slot: Slot | None = None) -> tuple[Experience, dict[str, int]] | None:
    """An ``Experience`` from one entry, plus the line index of each field (for provenance).

    ``firm_slot``: where the section's unambiguous entries print the employer; it decides
    between two pieces vocabulary cannot tell apart (see :mod:`firm_slot`)."""
    built = _build(lines, entry, at_convention, firm_slot)
    return built[:2] if built is not None else None


def _build(lines: list[TextLine], entry: RawEntry, at_convention: bool, firm_slot: Slot | None
           ) -> tuple[Experience, dict[str, int], Slot | None] | None:
    """``build_experience`` plus the employer's slot when the entry names its employer unambiguously."""
    lex = load_lexicon()
    forced, plain, locations, at_firms = _pieces(lines, entry, at_convention)
    # "Retired, United States Air Force": a status is neither the role's title nor its employer
    forced = [p for p in forced if not _STATUS.match(p[0].strip())]

    def companyish(p: Piece) -> bool:
        return bool(lex.company_re.search(p[0]) or lex.institution_re.search(p[0]))

    title: Piece | None = forced[0] if forced else None
    if title is None and at_convention and len(plain) == 1 and not companyish(plain[0]):
        forced, title, plain = [plain[0]], plain[0], []  # "Title at Firm" printed without the firm: a title
    if title is None:
        scored = [(len(lex.title_re.findall(t)), not companyish((t, i)), -n, (t, i)) for n, (t, i) in enumerate(plain)]
        scored = [s for s in scored if s[0] > 0]
        if scored:
            title = max(scored, key=lambda s: (s[1], s[0], s[2]))[3]
    rest = [p for p in plain if p != title and plausible_employer(p[0])]
    # a skill's name can be a firm ("Figma"), a bare place only when nothing else is there
    # a firm named after "at" first; a place only demoted when it ends its line ("Employer, City" keeps it)
    rest.sort(key=lambda p: (p not in at_firms, bool(_is_place(p[0])) and not _followed(p, plain),
                             bool(canonical_skill(p[0]))))
    company = next((p for p in rest if companyish(p)), rest[0] if rest else None)
    if company is not None and _is_place(company[0]) and ("," in company[0] or _is_country(company[0])):
        locations = [company, *locations]  # "Denmark", "Porto, Portugal" alone are where, not who ("Thies" may be a firm)
        company = None
    if title is None:
        others = [p for p in rest if p != company]
        if others:
            title = others[0] if companyish(company) else plain[0]
            later = [p for p in plain[1:] if plausible_employer(p[0])]  # not "suivi d'un contrat court"
            if not companyish(company) and later:
                company = later[0]
    candidates = firm_candidates(rest, locations, _is_country)
    observed = slot_of(entry, company, title) if company is not None and (
        companyish(company) or candidates == [company]) else None
    picked = pick_by_slot(entry, candidates, title, firm_slot) if firm_slot and observed is None else None
    if picked is not None and picked != company:
        locations = [p for p in locations if p != picked]
        if company is not None and company not in at_firms:
            locations.insert(0, company)  # the displaced piece is where the role was
        company = picked
    if company is None:
        # "Carlier, Raynaudboeuf" looks like "City, Region", but an entry without any other
        # employer piece is far likelier to print "Employer, City"
        pair = next((loc for loc in locations if "," in loc[0]), None)
        if pair is not None:
            first, _, place = pair[0].partition(",")
            company = (first.strip(), pair[1])
            locations = [(place.strip(), pair[1])] + [loc for loc in locations if loc is not pair]
    if title is None and company is None:
        return None
    d = entry.dates
    exp = Experience(
        title=tidy_text(title[0]) if title else None,
        company=_without_cjk_city(tidy_text(company[0])) if company else None,
        location=locations[0][0] if locations else None,
        start=d.start if d else None,
        end=d.end if d else None,
        is_current=bool(d and d.is_current),
        bullets=[re.sub(r"^\s*[•·▪●◦‣■\-*–—]\s*", "", lines[i].text.split("\t")[0]) for i in entry.body][:30],
    )
    where = {}
    if title:
        where["title"] = title[1]
    if company:
        where["company"] = company[1]
    if entry.date_line is not None:
        where["dates"] = entry.date_line
    return exp, where, observed


_STATUS = re.compile(r"^(?:retired|unemployed|career break|sabbatical|parental leave|maternity leave|"
                     r"en retraite|retraité|jubilado|pensionista|aposentad[oa]|im ruhestand|rentner(?:in)?|"
                     r"pensionato|emeryt(?:ka)?|gepensioneerd)\.?$", re.IGNORECASE)
_STATUS_LEAD = re.compile(_STATUS.pattern.rstrip("$").replace("\\.?", "") + r"\s*[,;–—-]\s+(?=\S)", re.IGNORECASE)


def _without_cjk_city(firm: str) -> str:
    """"黑科技公司上海" → "黑科技公司": a city printed straight after a CJK company word is where, not who."""
    if firm.isascii():
        return firm
    m = load_lexicon().company_re.search(firm)
    if m and m.start() > 0 and m.end() < len(firm) and _is_place(firm[m.end():].strip(" ，,·・()（）")):
        return firm[: m.end()]
    return firm


def tidy_text(text: str) -> str:
    """Whitespace folded, separators and a sentence period trimmed from a header piece."""
    return strip_sentence_period(re.sub(r"\s+", " ", text).strip(" ,;:|"))


def parse_experiences(lines: list[TextLine], idx: list[int]) -> list[tuple[Experience, dict[str, int]]]:
    """All roles in an experience section."""
    out: list[tuple[Experience, dict[str, int]]] = []
    entries = segment_entries(lines, idx)
    at_convention = _prints_title_at_firm(lines, entries) or _lone_pieces_are_titles(lines, entries)
    # first pass: the employer slot of the entries that name their employer unambiguously
    first = [None if _is_project(lines, e) else _build(lines, e, at_convention, None) for e in entries]
    slot = section_slot(b[2] for b in first if b is not None)
    for entry, built in zip(entries, first, strict=True):
        _, plain, places, _ = _pieces(lines, entry)
        if out and entry.dates is not None and not plain \
                and all(_is_place(p.split(",")[0].strip()) or not p.strip() for p, _ in places):
            # "Aug 2012 – Dec 2012 | Denver, CO" under a role: a second term of the same role
            prev, where = out[-1]
            d = entry.dates
            again = prev.model_copy(update={"start": d.start, "end": d.end, "is_current": d.is_current,
                                            "bullets": [BULLET.sub("", lines[i].text.split("\t")[0])
                                                        for i in entry.body][:30]})
            out.append((again, {**where, "dates": entry.date_line} if entry.date_line is not None else where))
            continue
        if _is_project(lines, entry):
            continue  # a personal or side project listed among the roles: no employer, no time employed
        if slot is not None and (built is None or built[2] is None):
            built = _build(lines, entry, at_convention, slot)  # the section's convention decides
        if built is not None:
            built = built[:2]
            if entry.dates is not None and entry.dates.open_ended and any(e.start or e.end for e, _ in out):
                # "2019 - Enquêtrice" below a later role: ongoing only by convention, and the convention holds
                # for the newest role alone; further down the list the dash separates a single year's title
                built = (built[0].model_copy(update={"is_current": False, "end": built[0].start}), built[1])
            out.append(built)
            out.extend(_further_terms(lines, entry, built))
    return out or prose_roles(lines, idx)


def _is_project(lines: list[TextLine], entry: RawEntry) -> bool:
    """Is the entry the candidate's own project (a header cell says so)?"""
    return any(_PROJECT_MARK.search(lines[i].text) for i in entry.header)


def _followed(piece: Piece, plain: list[Piece]) -> bool:
    """Does another piece follow ``piece`` on its line ("Camargo, Porto Alegre": the firm, then where)?"""
    later = plain[plain.index(piece) + 1:] if piece in plain else []
    return any(i == piece[1] for _, i in later)


def _prints_title_at_firm(lines: list[TextLine], entries: list[RawEntry]) -> bool:
    """Does the section print its roles "Title at Firm"? Two headers or more, and most of them, read
    "<title words> at <Firm>" (LinkedIn's old export, many Word CVs): the template's convention."""
    lex = load_lexicon()
    heads = [lines[e.header[0]].text.strip() for e in entries if e.header]
    at = [m for m in (_AT.match(h) for h in heads) if m and m.group(2)[:1].isupper()]
    titled = sum(1 for m in at if lex.title_re.search(m.group(1)))
    return titled >= 2 and 2 * len(at) > len(heads)


def _lone_pieces_are_titles(lines: list[TextLine], entries: list[RawEntry]) -> bool:
    """Do the section's one-piece headers name roles? Two or more are titles ("UI Designer") and none
    is a firm ("Acme Ltd"): a lone piece without either cue ("Game Artist") is then a title too."""
    lex = load_lexicon()
    titles = firms = 0
    for entry in entries:
        forced, plain, _, _ = _pieces(lines, entry)
        if forced or len(plain) != 1:
            continue
        text = plain[0][0]
        if lex.company_re.search(text) or lex.institution_re.search(text):
            firms += 1
        elif lex.title_re.search(text):
            titles += 1
    return titles >= 2 and firms == 0


_TERM_JOIN = re.compile(r"^\s*(?:,|;|&|\+|and|und|et|y|e|och|en|/)\s*$", re.IGNORECASE)


def _further_terms(lines: list[TextLine], entry: RawEntry, built: tuple[Experience, dict[str, int]]
                   ) -> list[tuple[Experience, dict[str, int]]]:
    """"2003 – 2004 und 2006 – 2012 <tab> Employer": one role held in two terms is two periods of work."""
    if entry.date_line is None:
        return []
    text = lines[entry.date_line].text
    ranges = find_date_ranges(text)
    out = []
    for prev, r in itertools.pairwise(ranges):
        if r.start is None or not _TERM_JOIN.match(text[prev.span[1]:r.span[0]]):
            break
        exp, where = built
        out.append((exp.model_copy(update={"start": r.start, "end": r.end, "is_current": r.is_current}), where))
    return out


# A header cell that says the entry is the candidate's own project, not a job ("Golang <tab> Personal project").
_PROJECT_MARK = re.compile(r"(?:^|\t|[,，(（]\s*)(?:个人项目|個人項目|个人作品|personal project|side project|hobby project|"
                           r"pet project|projet personnel|proyecto personal|projeto pessoal|progetto personale|"
                           r"privatprojekt|persönliches projekt)\b", re.IGNORECASE)
