"""What identifies the subject of an access export and what identifies everyone else (``subject_redact.py``)."""

from __future__ import annotations

import pytest

from cvrag_desktop.catalog.compliance.subject_redact import OTHER, QUOTE_DROPPED, SubjectPeople
from cvrag_desktop.catalog.db import Catalog
from cvrag_desktop.domain import Chunk
from tests.support.people_docs import ANA_NEW, ANA_OLD, ANA_OTHER, add_document, make_cv

PIKE = make_cv("Wendell Pike", ["wendell.pike@pikeworks.test"], ["+44 7700 900444"],
               [("Analyst", "Umbrella Logistics", "2020-01", None)], skills=("SQL",))
PIKE_LINE = "SQL reporting for the Umbrella Logistics night depot"


@pytest.fixture
def catalog(tmp_path):
    cat = Catalog(tmp_path / "catalog.sqlite3")
    add_document(cat, "a1", ANA_OLD)
    add_document(cat, "a2", ANA_NEW)
    add_document(cat, "a3", ANA_OTHER)  # a namesake: another person called Ana Ruiz
    add_document(cat, "w1", PIKE)
    fid = cat.query("SELECT file_id FROM files WHERE candidate_id = 'w1'")[0][0]
    cat.save_candidate("w1", "w1" * 32, PIKE, [Chunk(chunk_id="w1-0", candidate_id="w1", section="experience",
                                                     ordinal=0, text=f"Wendell Pike\n{PIKE_LINE}", header="")], fid)
    yield cat
    cat.close()


def test_other_peoples_names_contacts_ids_and_lines_are_replaced(catalog):
    people = SubjectPeople(catalog, ["a2", "a1"], ["P-" + "1" * 20])
    text = (f"Better than Wendell Pike (wendell.pike@pikeworks.test, 07700 900444 or +44-7700-900-444); Pike said "
            f"'{PIKE_LINE}'; ids w1 and {'w1' * 32}; refs P-{'1' * 20} P-{'2' * 20}; a pike in the lake")
    got = people.redact_text(text)
    for gone in ("Wendell", "Pike", "pikeworks", "900444", "900-444", "w1", "P-" + "2" * 20, "Umbrella"):
        assert gone not in got, (gone, got)
    assert OTHER in got and QUOTE_DROPPED in got and "P-" + "1" * 20 in got
    assert "a pike in the lake" in got  # a name part is matched as a name is written, not every word


def test_the_subjects_own_name_stays_even_when_a_namesake_has_it(catalog):
    people = SubjectPeople(catalog, ["a2", "a1"])
    got = people.redact_text("Dr. Ana Ruiz (ana.ruiz@ruizmail.net, +34 600 111 222); not aruiz.nurse@example.com, "
                             "+34 699 000 999 or a3")
    assert got.startswith("Dr. Ana Ruiz (ana.ruiz@ruizmail.net, +34 600 111 222)")
    assert "aruiz.nurse" not in got and "699 000 999" not in got and " a3" not in got
    assert people.names_subject("Ana") and people.names_subject("ana.ruiz@ruizmail.net")
    assert not people.names_subject("Wendell Pike") and people.names_others("Wendell Pike")


def test_redact_keeps_the_structure_and_the_keys(catalog):
    people = SubjectPeople(catalog, ["w1"])
    data = {"name": "Ana Ruiz", "notes": ["call Ana Ruiz", 3, None], "nested": {"Ruiz": "x"}}
    assert people.redact(data) == {"name": OTHER, "notes": [f"call {OTHER}", 3, None], "nested": {"Ruiz": "x"}}


def _store(cat, cid: str, cv, lines: list[str]) -> None:
    """One document whose chunk holds ``lines`` (as the PDF text would: one per line)."""
    add_document(cat, cid, cv)
    fid = cat.query("SELECT file_id FROM files WHERE candidate_id = ?", (cid,))[0][0]
    cat.save_candidate(cid, (cid * 64)[:64], cv, [Chunk(chunk_id=f"{cid}-0", candidate_id=cid, section="summary",
                                                        ordinal=0, text="\n".join([cv.name, *lines]), header="")], fid)


BOILER = "References available upon request"
SHARED = "Strong communication skills and team player"
QUINN = make_cv("Quinn Harlow", ["quinn@harlow.test"], ["+44 7700 900555"], [("Buyer", "Initech", "2019-01", None)])


def test_a_quote_broken_over_lines_is_cut_out_alone(catalog):
    people = SubjectPeople(catalog, ["a2", "a1"])
    text = ("Ana: good. Quote: SQL reporting for the Umbrella\nLogistics  night depot. Ana is strong in Python.\n"
            "Also: SQL  reporting for\tthe Umbrella Logistics\r\nnight depot")
    got = people.redact_text(text)
    assert got == f"Ana: good. Quote: {QUOTE_DROPPED}. Ana is strong in Python.\nAlso: {QUOTE_DROPPED}"
    assert people.redact_text(f"Quote: {PIKE_LINE} (twice: {PIKE_LINE})") == f"Quote: {QUOTE_DROPPED} " \
                                                                               f"(twice: {QUOTE_DROPPED})"


def test_boilerplate_of_several_cvs_is_not_a_quote(tmp_path):
    cat = Catalog(tmp_path / "catalog.sqlite3")
    _store(cat, "a1", ANA_OLD, [])
    _store(cat, "w1", PIKE, [BOILER, PIKE_LINE, SHARED])
    _store(cat, "q1", QUINN, [BOILER, SHARED])
    people = SubjectPeople(cat, ["a1"])
    note = f"Ana Ruiz. {BOILER}.\nQuote: {PIKE_LINE}. Quinn Harlow: {SHARED}"
    got = people.redact_text(note)
    assert got == f"Ana Ruiz. {BOILER}.\nQuote: {QUOTE_DROPPED}. {OTHER}: {SHARED}"  # the name still goes
    cat.close()


def test_the_lines_of_one_other_persons_two_cvs_are_not_boilerplate(tmp_path):
    cat = Catalog(tmp_path / "catalog.sqlite3")
    _store(cat, "a1", ANA_OLD, [])
    _store(cat, "w1", PIKE, [PIKE_LINE])
    _store(cat, "w2", make_cv("W. Pike", ["wendell.pike@pikeworks.test"]), [PIKE_LINE])  # the same person again
    assert SubjectPeople(cat, ["a1"]).redact_text(f"Quote: {PIKE_LINE}") == f"Quote: {QUOTE_DROPPED}"
    cat.close()


def test_a_line_of_the_subjects_own_cv_stays(tmp_path):
    cat = Catalog(tmp_path / "catalog.sqlite3")
    _store(cat, "a1", ANA_OLD, ["Led the payments team at Northwind for five years"])
    _store(cat, "w1", PIKE, ["Led the payments team at Northwind for five years", PIKE_LINE])
    people = SubjectPeople(cat, ["a1"])
    note = "Ana: Led the payments team at Northwind\nfor five years. Not Pike's: " + PIKE_LINE
    assert people.redact_text(note) == ("Ana: Led the payments team at Northwind\nfor five years. Not "
                                        f"{OTHER}: {QUOTE_DROPPED}")
    cat.close()
