"""Given names of many languages, from Faker's person providers (a run-time dependency already).

A surname can be a vocabulary word ("Sales", "Grupa", "Company", "Cook"): the name rules
reject a cell that holds a job-title, employer or school word, which loses such people.
A first word that is a common given name is the evidence that lets the cell stay a name.
"""

from __future__ import annotations

import importlib
from functools import lru_cache

from cvrag_desktop.text.keys import normalize_key

# Latin-script locales of the people a European/American recruiter's inbox holds
_LOCALES = ("en_US", "en_GB", "en_IE", "en_IN", "de_DE", "de_AT", "fr_FR", "es_ES", "es_MX", "it_IT", "pt_BR",
            "pt_PT", "pl_PL", "nl_NL", "sv_SE", "da_DK", "no_NO", "fi_FI", "cs_CZ", "ro_RO", "hu_HU", "tr_TR", "hr_HR")


@lru_cache(maxsize=1)
def given_names() -> frozenset[str]:
    """Folded given names of every listed locale (loaded once, on first use)."""
    out: set[str] = set()
    for loc in _LOCALES:
        try:
            provider = importlib.import_module(f"faker.providers.person.{loc}").Provider
        except (ImportError, AttributeError):
            continue
        for attr in ("first_names", "first_names_male", "first_names_female"):
            names = getattr(provider, attr, ()) or ()
            out.update(normalize_key(str(n)) for n in names if len(str(n)) >= 2)
    return frozenset(out)


def is_given_name(word: str) -> bool:
    """True when ``word`` is a common given name in one of the listed languages."""
    return normalize_key(word) in given_names()
