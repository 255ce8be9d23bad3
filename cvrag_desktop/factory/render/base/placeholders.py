"""Template text left in a CV (the ``placeholders`` hard case): "Your Name", "[Job Title]", "City, Country",
"[Company Name]", "www.yourwebsite.com", "Lorem ipsum" lines, as people leave them when they fill in a
Word or Canva template and forget a field.

A placeholder is printed, never a value: the truth keeps only the real values (an anonymous CV that
prints "Your Name" still has the name ""). Every placeholder printed is listed in
``PrintedCV.extra["placeholders"]`` (one per line) so that the zoo can tell it from a value.
Choices come from a generator of their own, so the builder's stream and the truth are untouched.
"""

from __future__ import annotations

import random
from dataclasses import replace

from cvrag_desktop.factory.model import CVDraft

LOREM = ("Lorem ipsum dolor sit amet, consectetur adipiscing elit.",
         "Lorem ipsum dolor sit amet, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua.",
         "Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris.")
# Per language: the template's name, job title, employer, place and web placeholders (English otherwise).
TEXTS: dict[str, dict[str, tuple[str, ...]]] = {
    "en": {"name": ("Your Name", "[Your Name]", "YOUR NAME", "First Name Last Name"),
           "title": ("[Job Title]", "Job Title", "Your Profession"),
           "company": ("[Company Name]", "Company Name"), "place": ("City, Country", "[City, State]"),
           "web": ("www.yourwebsite.com", "linkedin.com/in/yourname")},
    "de": {"name": ("Vorname Nachname", "Ihr Name"), "title": ("[Berufsbezeichnung]",),
           "company": ("[Firmenname]",), "place": ("Stadt, Land",), "web": ("www.ihre-webseite.de",)},
    "es": {"name": ("Nombre Apellido", "Tu Nombre"), "title": ("[Puesto]",),
           "company": ("[Nombre de la empresa]",), "place": ("Ciudad, País",), "web": ("www.tusitio.com",)},
    "fr": {"name": ("Prénom Nom", "Votre Nom"), "title": ("[Intitulé du poste]",),
           "company": ("[Nom de l'entreprise]",), "place": ("Ville, Pays",), "web": ("www.votresite.fr",)},
}


def add_placeholders(pc, draft: CVDraft):
    """``pc`` with template text left in (a copy; ``pc`` itself is not changed) when the draft has the
    ``placeholders`` hard case, else ``pc`` as it is."""
    if "placeholders" not in draft.hard_cases:
        return pc
    rng = random.Random(f"{draft.spec.rng_key}:placeholders")
    words = TEXTS.get(draft.hints.heading_lang, TEXTS["en"])
    left: list[str] = []

    def pick(kind: str) -> str:
        text = rng.choice(words[kind])
        left.append(text)
        return text

    name = pc.name or (pick("name") if rng.random() < 0.7 else "")
    headline = pc.headline or (pick("title") if rng.random() < 0.6 else "")
    roles = []
    for k, role in enumerate(pc.roles):
        location = role.location or (pick("place") if rng.random() < 0.4 else "")
        points = list(role.bullets)
        if k == 0 or rng.random() < 0.2:
            lorem = rng.choice(LOREM)
            left.append(lorem)
            points.append(lorem)
        roles.append(replace(role, location=location, bullets=points))
    contact = list(pc.contact)
    if rng.random() < 0.5:
        labels = draft.hints.labels
        contact.append((labels.get("web", "Web"), pick("web")))
    summary = pc.summary
    if not summary or rng.random() < 0.3:
        lorem = f"{rng.choice(LOREM)} {pick('company')}."
        left.append(lorem)
        summary = f"{summary} {lorem}".strip()
    extra = {**pc.extra, "placeholders": "\n".join(dict.fromkeys(left))}
    return replace(pc, name=name, headline=headline, roles=roles, contact=contact, summary=summary, extra=extra)
