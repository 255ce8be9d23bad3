"""A name printed on the row of a label in capitals (a Europass label column beside the value) loses the label."""

from __future__ import annotations

import pytest

from cvrag_desktop.ingestion.fields.identity.names import clean_name


@pytest.mark.parametrize(("cell", "name"), [
    ("PERSONAL DETAILS Ben Miller", "Ben Miller"),
    ("ANGABEN ZUR PERSON Erhardt Wagner", "Erhardt Wagner"),
    ("INFORMATIONS PERSONNELLES Benoît Brunel", "Benoît Brunel"),
    ("DANE OSOBOWE Jennifer Hall", "Jennifer Hall"),
    ("KONTAKTDATEN Marion Gierschner", "Marion Gierschner"),
])
def test_label_in_capitals_before_the_name_is_dropped(cell, name):
    assert clean_name(cell) == name


@pytest.mark.parametrize("cell", ["DUPONT Marie", "VAN DER BERG Anna Sofie", "CONTACT", "PERSONAL DETAILS ANNA LEE",
                                  "Ben Miller"])
def test_a_surname_in_capitals_or_a_lone_label_stays(cell):
    assert clean_name(cell) == cell

