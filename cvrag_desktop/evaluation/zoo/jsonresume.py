"""Factory draft -> JSON Resume (https://jsonresume.org/schema) for the npm themes of the zoo.

Every value of the truth that the schema can hold goes in: name, headline (``basics.label``),
e-mails, phones, links, location, summary, every role (newest first, as JSON Resume lists them,
unless the CV prints oldest first) with its bullets, every degree, skills as the CV prints them,
spoken languages with their level, certifications with the year the CV prints. Dates are the
truth's partial ISO dates ("2019-03", "2019"): the theme decides how to print them.
"""

from __future__ import annotations

import re

from cvrag_desktop.evaluation.zoo.families import THEME_INPUT_KEYS, THEME_NO_EMPTY_PROFILES
from cvrag_desktop.factory.model import CVDraft

_LEVEL_SPLIT = re.compile(r"\s+[–-]\s+|\s*\(")
_CERT_YEAR = re.compile(r"^(?P<name>.*?)\s*\((?P<year>(?:19|20)\d\d)\)$")


def _spoken(printed: str) -> dict:
    """"Español – Nativo" / "English (Native)" -> {language, fluency}."""
    parts = _LEVEL_SPLIT.split(printed, maxsplit=1)
    lang = parts[0].strip()
    level = parts[1].strip().rstrip(")").strip() if len(parts) > 1 else ""
    return {"language": lang, "fluency": level} if level else {"language": lang}


def _certificate(printed: str) -> dict:
    m = _CERT_YEAR.match(printed)
    return {"name": m["name"], "date": m["year"]} if m else {"name": printed}


def _profile(link: str) -> dict:
    host = link.split("/", 1)[0].lower()
    network = next((n for n in ("LinkedIn", "GitHub", "GitLab", "Behance", "Dribbble", "Xing")
                    if n.lower() in host), "Website")
    url = link if link.startswith(("http://", "https://")) else f"https://{link}"
    return {"network": network, "url": url, "username": link.rstrip("/").rsplit("/", 1)[-1]}


def to_resume(draft: CVDraft, theme: str = "") -> dict:
    """The draft as a JSON Resume document (only keys the schema defines); a ``theme`` listed in
    ``THEME_INPUT_KEYS`` also gets the empty keys its templates cannot do without, and one in
    ``THEME_NO_EMPTY_PROFILES`` no empty ``basics.profiles`` (it reads the first profile blindly)."""
    cv, hints = draft.cv, draft.hints
    basics: dict = {"name": cv.name or ""}
    if cv.headline and hints.show_headline:
        basics["label"] = cv.headline
    if cv.emails:
        basics["email"] = cv.emails[0]
    if cv.phones:
        basics["phone"] = cv.phones[0]
    if cv.summary:
        basics["summary"] = cv.summary
    if cv.location:
        basics["location"] = {"city": cv.location}
    basics["profiles"] = [_profile(x) for x in cv.links]
    basics["profiles"] += [{"network": "Email", "username": e, "url": f"mailto:{e}"} for e in cv.emails[1:]]
    basics["profiles"] += [{"network": "Phone", "username": p} for p in cv.phones[1:]]
    work = []
    for exp in cv.experiences:
        # "company" is the pre-1.0 schema's key, still read by older themes (macchiato, flat...)
        item: dict = {"name": exp.company or "", "company": exp.company or "", "position": exp.title or ""}
        if exp.location:
            item["location"] = exp.location
        if exp.start:
            item["startDate"] = exp.start
        if exp.end and not exp.is_current:
            item["endDate"] = exp.end
        if exp.bullets:
            item["highlights"] = list(exp.bullets)
        work.append(item)
    education = []
    for ed in cv.education:
        item = {"institution": ed.institution or "", "studyType": ed.degree or ""}
        if ed.field:  # several themes print only the area (the field of study), others both
            item["area"] = ed.field
        if ed.start:
            item["startDate"] = ed.start
        if ed.end:
            item["endDate"] = ed.end
        education.append(item)
    if hints.newest_first:
        work.reverse()
        education.reverse()
    resume = {"basics": basics, "work": work, "education": education}
    resume["skills"] = [{"name": hints.skill_label(s)} for s in cv.skills]
    resume["languages"] = [_spoken(x) for x in hints.spoken]
    resume["certificates"] = [_certificate(x) for x in hints.certifications]
    resume["meta"] = {"language": hints.lang, "version": "v1.0.0"}
    if theme in THEME_NO_EMPTY_PROFILES and not basics["profiles"]:
        del basics["profiles"]
    for section, keys in THEME_INPUT_KEYS.get(theme, {}).items():
        items = resume[section] if isinstance(resume[section], list) else [resume[section]]
        for item in items:
            for key, value in keys.items():
                item.setdefault(key, value)
    return resume


def resume_texts(resume: dict) -> list[str]:
    """Every string value of a JSON Resume document (what a theme may print)."""
    out: list[str] = []

    def walk(v: object) -> None:
        if isinstance(v, str):
            out.append(v)
        elif isinstance(v, dict):
            for x in v.values():
                walk(x)
        elif isinstance(v, list):
            for x in v:
                walk(x)

    walk(resume)
    return out

