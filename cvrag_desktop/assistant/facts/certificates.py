"""Who holds a certificate of some name or issuer: "a certificate from Google", "an ACLS cert".

Read from the certifications each CV lists (as extracted at import), never from a skill or a
tool the CV mentions elsewhere ("uses Google Data Studio" is no Google certificate). A listed
item matches when every word asked is one of its words (an acronym in brackets counts).
"""

from __future__ import annotations

import re

from cvrag_desktop.assistant.facts.analytics import EvidenceBook
from cvrag_desktop.assistant.facts.people import PeopleIndex
from cvrag_desktop.assistant.facts.store import CandidateFacts
from cvrag_desktop.assistant.understand.question import has_phrase
from cvrag_desktop.text.fold import fold
from cvrag_desktop.text.vocab.credentials import DRIVING, parse_credential, person_credentials

# a certificate asked about, in the listed languages ("cert" is how recruiters type it)
CERT_WORDS = re.compile(r"(?<![a-z0-9])(certs?|certificates?|certifications?|certified|certificat(?:s|ion|ions)?|"
                        r"certificados?|certificaciones|certificaci[oó]n|certificat[oi]|certificazion[ei]|"
                        r"certifica[cç](?:ao|oes|ão|ões)|zertifikat(?:e|en)?|zertifiziert\w*|zertifizierung(?:en)?|"
                        r"certificaat|certificaten|gecertificeerd|certyfikat(?:y|ów|ow)?|certyfikowan\w*)(?![a-z0-9])"
                        r"|证书|认证|資格|認定")


# a licence asked about: "a nursing licence", "licensed to practise", "Zulassung", "colegiado"
LICENCE_WORDS = re.compile(r"(?<![a-z0-9])(licen[cs]es?|licensed|licensure|registration|zulassung|approbation|"
                           r"colegiad[oa]s?|licencia|licenza|licenca|licença|uprawnieni\w*|registratie)(?![a-z0-9])")


HOLDS = re.compile(r"(?<![a-z0-9])(holds?|holding|besitzt|posee|possede|possiede|possui|bezit|posiada)(?![a-z0-9])")


def asks_certificate(question_folded: str) -> bool:
    """Does the question ask about a certificate or a licence (any listed language)? "Who holds X?"
    counts too: the certificate route is taken only when someone lists a matching certificate."""
    return bool(CERT_WORDS.search(question_folded) or LICENCE_WORDS.search(question_folded)
                or HOLDS.search(question_folded))


def names_certificate(question_folded: str) -> bool:
    """Does the question say certificate or licence (not only "holds")?"""
    return bool(CERT_WORDS.search(question_folded) or LICENCE_WORDS.search(question_folded))


def asked_kind(question_folded: str) -> str | None:
    """"driving licence" or "licence" when the question asks for that kind of credential, else None."""
    if DRIVING.search(question_folded):
        return "driving licence"
    return "licence" if LICENCE_WORDS.search(question_folded) else None


def cert_subject(words: list[str]) -> list[str]:
    """The words that name the certificate or its issuer: the question's content words minus the
    certificate and licence words themselves ("acls", "google")."""
    drive = {"driving", "drivers", "driver", "fuhrerschein", "permis", "conduire", "prawo", "jazdy", "rijbewijs"}
    return [w for w in words if not CERT_WORDS.fullmatch(w) and not LICENCE_WORDS.fullmatch(w) and w not in drive]


def _words(text: str) -> set[str]:
    return set(re.findall(r"\w+", fold(text)))


def library_shorts(people: PeopleIndex) -> dict[str, str]:
    """Every credential short name the library lists (folded → as shown): what the Credential facet offers."""
    out: dict[str, str] = {}
    for f in people.facts.all().values():
        for short in person_credentials([f]):
            out.setdefault(fold(short), short)
    return out


def named_short(question_folded: str, shorts: dict[str, str]) -> str | None:
    """The longest library credential acronym the question names ("a CPA certificate", "RN licence")."""
    # acronyms only ("RN", "NE-BC", "CPA"): a name ("Google") asks by its words, the issuer's included
    hits = [k for k, shown in shorts.items() if re.fullmatch(r"[A-Z][A-Z0-9&+/-]{1,7}", shown)
            and has_phrase(question_folded, k)]
    return shorts[max(hits, key=len)] if hits else None


def matching_items(f: CandidateFacts, subject: list[str], kind: str | None = None, short: str | None = None) -> list[str]:
    """The listed certifications of one document that carry every subject word (and are of ``kind``:
    "licence", "driving licence", when given), or whose short name is ``short`` (the facet's value)."""
    if short is not None:
        key = fold(short)
        return [c for c in f.record.get("certifications") or []
                if isinstance(c, str) and (p := parse_credential(c)) is not None and fold(p.short) == key]
    wanted = set(subject)
    items = [c for c in f.record.get("certifications") or [] if isinstance(c, str) and wanted <= _words(c)]
    parsed = [(c, parse_credential(c)) for c in items]  # only what reads as a credential (as the facet shows)
    return [c for c, p in parsed if p is not None and (kind is None or p.kind == kind)]


def holders(people: PeopleIndex, pool: list[CandidateFacts], subject: list[str],
            kind: str | None = None, short: str | None = None) -> list[tuple[CandidateFacts, list[str]]]:
    """Each person of ``pool`` (documents of one person once) with their matching certifications."""
    people.refresh()
    seen: set[str] = set()
    out = []
    for f in pool:
        p = people.person_of(f.candidate_id, refresh=False)
        key = p.person_id if p else f.candidate_id
        items = matching_items(f, subject, kind, short)
        if key in seen or not items:
            continue
        seen.add(key)
        out.append((f, items))
    return out


def people_with_certificate(book: EvidenceBook, people: PeopleIndex, pool: list[CandidateFacts],
                            subject: list[str], count: bool, what: str = "", kind: str | None = None,
                            short: str | None = None) -> dict:
    """Name (or count) the people holding a certificate with the subject words (of ``kind``), or the
    credential of that short name, each item cited."""
    found = holders(people, pool, subject, kind, short)
    said = short or " ".join(subject) or kind or "certificate"
    subject = [short] if short else subject
    scope = f" ({what})" if what else ""
    if not found:
        return {"status": "unknown", "answer": f"No imported CV{scope} lists a {kind or 'certificate'} with “{said}”."
                if subject else f"No imported CV{scope} lists a {said}.",
                "data": {"count": 0, "candidate_ids": []}}
    lines = []
    for f, items in found:
        p = people.person_of(f.candidate_id, refresh=False)
        name = people.display(p) if p else f.name
        cited = "; ".join(item + book.cite(book.facts.chunk_for(f.candidate_id, "certifications", item), "text", item)
                          for item in items[:3])
        lines.append(f"- {name}: {cited}")
    n = len(found)
    thing = f"a {kind or 'certificate'} with “{said}”" if subject else f"a {said}"
    head = (f"{n} candidate{'s' if n != 1 else ''}{scope} list{'s' if n == 1 else ''} {thing}:"
            if count else f"Candidates{scope} listing {thing}:")
    return {"status": "answered", "answer": head + "\n" + "\n".join(lines),
            "data": {"count": n, "candidate_ids": [f.candidate_id for f, _ in found]}}
