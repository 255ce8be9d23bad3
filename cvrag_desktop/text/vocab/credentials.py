"""Credentials read from a CV's listed certifications: kind, short name, issuer, number, expiry.

"Registered Nurse (RN), Texas Board of Nursing, License #234567, Active" →
licence · RN · Texas Board of Nursing · #234567 · active; "Certified Public Accountant (CPA)" →
certification · CPA; "Führerschein Klasse B" → driving licence. The short name is what a
recruiter filters on (the Credential facet, "who holds a CPA?"); the rest is shown beside it.
An item that is a contact detail or a bare place (a sidebar read into the section) is no
credential.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from cvrag_desktop.text.fold import fold
from cvrag_desktop.text.vocab.places import countries_of_places

DRIVING = re.compile(r"driv(?:ing|er'?s) licen[cs]e|führerschein|fuhrerschein|permis de conduire|permis [abc]\b|"
                     r"carn[eé] de conducir|permiso de conducir|patente (?:di guida|[abc]\b)|carta de condução|"
                     r"carteira de motorista|\bcnh\b|prawo jazdy|rijbewijs|运转免许|驾驶证|運転免許", re.I)
LICENCE = re.compile(r"licen[cs]e|licensed|registration|bar admission|admitted to the bar|"
                     r"\bbar\b|approbation|zulassung|kammer|colegiad[oa]|ordre des|iscrizione all'albo|albo|"
                     r"inscrição|big-registratie|prawo wykonywania zawodu", re.I)
_ACRONYM = re.compile(r"\(([A-Z][A-Za-z0-9&/.+-]{1,11})\)")
_LEADING_CAPS = re.compile(r"^([A-Z][A-Z0-9&+/-]{1,9})(?=\b|\s|$)")
_NUMBER = re.compile(r"(?:licen[cs]e|reg(?:istration)?|no\.?|number|nr\.?|n[º°])\s*(?:no\.?|number)?\s*[#:]?\s*"
                     r"([A-Z]{0,3}-?\d[\dA-Z-]{3,})|#\s*([A-Z]{0,3}-?\d[\dA-Z-]{3,})", re.I)
_EXPIRES = re.compile(r"(?:exp(?:ires|iry|\.)?|valid (?:until|through|to)|gültig bis|valable jusqu'au|válid[oa] hasta)"
                      r"\s*:?\s*(\d{1,2}[/.-]\d{4}|\d{4}-\d{2}|[A-Za-z]+\.? \d{4}|\d{4})", re.I)
_STATUS = re.compile(r"\b(active|inactive|expired|completed|in progress|pending)\b", re.I)
_NOT_A_CREDENTIAL = re.compile(r"@|https?://|www\.|^\+?[\d\s()./-]{7,}$|^(ul|ulica|str|straße|rue|calle|via)\.?\s",
                               re.I)


# what makes a listed item read as a credential (a sidebar or a thesis list read into the section does not)
_CREDENTIAL_WORDS = re.compile(
    r"certif\w*|licen[cs]\w*|registered|registration|accredit\w*|chartered|qualification|qualified|diploma|"
    r"course|training|program(me)?|professional|associate|practitioner|specialist|expert|foundation|fellow|"
    r"green belt|black belt|six sigma|scrum|itil|prince2|istqb|comptia|cisco|ccna|aws|azure|google|microsoft|"
    r"oracle|salesforce|sap|apple|adobe|hubspot|coursera|udemy|edx|life support|first aid|cpr|admitted|bar|board|"
    r"zertifi\w*|schein|zulassung|approbation|lehrgang|weiterbildung|certificado|certificación|título|curso|"
    r"certificat|attestation|formation|brevet|permis|attestato|corso|abilitazione|certificação|curso|"
    r"certificaat|diploma|opleiding|certyfikat\w*|kurs|szkolenie|uprawnienia|prawo jazdy|资格|证书|認定|資格|免許",
    re.I)
_BARE_ACRONYM = re.compile(r"^[A-Z][A-Z0-9&+/-]{1,7}(?:\s*\(\d{4}\))?$")
_NOT_AN_ENTRY = re.compile(r"^(dissertation|thesis|honou?rs?|award|supervision|phd supervision|publications?|"
                           r"undergraduate|graduate|doctoral|master'?s?)\b", re.I)


@dataclass(frozen=True)
class Credential:
    """One listed credential, parsed."""

    text: str  # as listed
    kind: str  # "licence", "driving licence" or "certification"
    short: str  # what a filter shows: an acronym if printed, else the name
    issuer: str | None = None
    number: str | None = None
    expires: str | None = None
    status: str | None = None


def parse_credential(item: str) -> Credential | None:
    """The credential an item of the certifications list states (None when it is no credential)."""
    text = " ".join((item or "").split())
    if len(text) < 2 or _NOT_A_CREDENTIAL.search(text):
        return None

    if len(text.split()) <= 3 and countries_of_places(fold(text)):
        return None  # "Polska", "Berlin": a sidebar's place read into the list
    if _NOT_AN_ENTRY.match(text) or not (_ACRONYM.search(text) or _BARE_ACRONYM.match(text)
                                         or re.match(r"[A-Z][A-Z0-9]{1,4}\b(?!\.)", text)  # "PMP - PMI, 2021"
                                         or _CREDENTIAL_WORDS.search(text)):
        return None  # a thesis title, a person's name, a course list read into the section
    kind = "driving licence" if DRIVING.search(text) else "licence" if LICENCE.search(text) else "certification"
    parts = [p.strip() for p in re.split(r",|\s[-–|·]\s", text) if p.strip()]
    name = parts[0] if parts else text
    acronym = _ACRONYM.search(name) or _ACRONYM.search(text)
    lead = _LEADING_CAPS.match(name)
    short = acronym.group(1) if acronym else \
        lead.group(1) if lead and len(name.split()) <= 3 and not name.isupper() else name[:60]  # "PMP Certified"
    number = next((g for m in _NUMBER.finditer(text) for g in m.groups() if g), None)
    expires = m.group(1) if (m := _EXPIRES.search(text)) else None
    status = m.group(1).lower() if (m := _STATUS.search(text)) else None
    issuer = next((p for p in parts[1:] if not (_NUMBER.search(p) or _EXPIRES.search(p) or _STATUS.fullmatch(p)
                                              or re.fullmatch(r"(exp\.?|\d{4}|\d{1,2}/\d{4})", p, re.I))), None)
    return Credential(text, kind, short, issuer, number, expires, status)


def person_credentials(documents: list) -> list[str]:
    """The short names of every credential a person's documents list (``CandidateFacts``), once each."""
    seen: dict[str, str] = {}
    for f in documents:
        for item in f.record.get("certifications") or []:
            c = parse_credential(item) if isinstance(item, str) else None
            if c is not None:
                seen.setdefault(fold(c.short), c.short)
    return list(seen.values())


def describe(c: Credential) -> str:
    """"licence RN · Texas Board of Nursing · #234567 · active": the parsed parts, for an answer."""
    bits = [f"{c.kind} {c.short}", c.issuer, f"#{c.number}" if c.number else None,
            f"expires {c.expires}" if c.expires else None, c.status]
    return " · ".join(b for b in bits if b)
