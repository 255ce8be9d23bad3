"""Credentials parsed from the listed certifications (invented items)."""

from __future__ import annotations

import pytest

from cvrag_desktop.assistant.facts.store import CandidateFacts
from cvrag_desktop.text.vocab.credentials import describe, parse_credential, person_credentials


@pytest.mark.parametrize("item, kind, short, issuer, number, expires", [
    ("Registered Nurse (RN), Ohio Board of Nursing, License #123456, Active", "licence", "RN",
     "Ohio Board of Nursing", "123456", None),
    ("Basic Life Support (BLS), American Heart Association, Exp. 05/2027", "certification", "BLS",
     "American Heart Association", None, "05/2027"),
    ("Certified Public Accountant (CPA)", "certification", "CPA", None, None, None),
    ("PMP - Project Management Institute, 2021", "certification", "PMP", "Project Management Institute", None, None),
    ("Führerschein Klasse B", "driving licence", "Führerschein Klasse B", None, None, None),
    ("Admitted to the Bar of Ruritania, Registration No. RB-2041", "licence", "Admitted to the Bar of Ruritania",
     None, "RB-2041", None),
])
def test_a_listed_item_is_read_into_its_parts(item, kind, short, issuer, number, expires):
    c = parse_credential(item)
    assert (c.kind, c.short, c.issuer, c.number, c.expires) == (kind, short, issuer, number, expires)


@pytest.mark.parametrize("item", ["someone@example.org", "ul. Przykładowa 1/2", "+48 600 000 000", "www.example.org"])
def test_a_contact_read_into_the_list_is_no_credential(item):
    assert parse_credential(item) is None


def test_a_persons_credentials_once_each_and_described():
    docs = [CandidateFacts("d1", "P", None, {"certifications": ["Certified Public Accountant (CPA)", "x@y.org"]}, {}),
            CandidateFacts("d2", "P", None, {"certifications": ["CPA", "Certified Management Accountant (CMA)"]}, {})]
    assert person_credentials(docs) == ["CPA", "CMA"]
    assert describe(parse_credential("Registered Nurse (RN), Ohio Board of Nursing, License #123456, Active")) == \
        "licence RN · Ohio Board of Nursing · #123456 · active"
