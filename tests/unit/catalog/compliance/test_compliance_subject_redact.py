"""What identifies the subject of an access export and what identifies everyone else (``subject_redact.py``)."""

from __future__ import annotations

import re
import time

import pytest

from cvrag_desktop.catalog.compliance.subject_redact import OTHER, QUOTE_DROPPED, SubjectPeople
from cvrag_desktop.catalog.db import Catalog
from cvrag_desktop.catalog.privacy.blind import pseudonym
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
    assert "a pike in the lake" not in got  # a name part in any case (the subject's CV has no "pike" of its own)


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


# ---- other people's identifiers in the forms notes, tags and file names take ---------------------------------
WILL = "5ab0c0de00000001"  # the subject: Will Hartley (his CV grows roses)
WP = "3f9a2b7c1d4e5f60"  # Wendell Pike
WILL_LINE = "Grew rose gardens for the Leeds council"


def _doc(cat, cid: str, cv, file_name: str, original: str, lines: list[str]) -> None:
    """One document with its own file name and original path."""
    sha = (cid * 4)[:64]
    fid = cat.upsert_file(sha=sha, original_path=original, file_name=file_name, size=1, status="processing")
    cat.save_candidate(cid, sha, cv, [Chunk(chunk_id=f"{cid}-0", candidate_id=cid, section="summary", ordinal=0,
                                            text="\n".join([cv.name, *lines]), header="")], fid)


@pytest.fixture
def many(tmp_path):
    cat = Catalog(tmp_path / "catalog.sqlite3")
    _doc(cat, WILL, make_cv("Will Hartley", ["will@hartley.test"]), "will_hartley_cv.pdf", "/cvs/will_hartley_cv.pdf",
         [WILL_LINE])
    _doc(cat, WP, PIKE, "wpike_cv.pdf", "C:\\cvs\\Wendell_Pike_CV.docx", [PIKE_LINE])
    _doc(cat, "9c0ffee000000003", make_cv("Rose Will", ["rw@rosewill.test"]), "rw.pdf", "/cvs/rw.pdf", [])
    _doc(cat, "9c0ffee000000004", make_cv("Wendy Ng", ["wendy@ng.test"]), "wng-2024.pdf", "/cvs/wng-2024.pdf", [])
    yield cat
    cat.close()


def _gone(word: str, text: str) -> bool:
    return re.search(rf"(?<![^\W_]){re.escape(word)}(?![^\W_])", text, re.IGNORECASE) is None


def test_a_name_part_goes_in_any_case_and_inside_a_tag_but_the_subjects_words_stay(many):
    people = SubjectPeople(many, [WILL])
    got = people.redact_text("pike is stronger; tag pike-shortlist; PIKE; Pike's notes; wendell.")
    assert _gone("pike", got) and _gone("wendell", got), got
    own = "Will Hartley will relocate; he grew a rose garden. Rose Will? No: Will."
    assert people.redact_text(own) == own.replace("Rose Will", OTHER)  # his name, his CV's word stay


def test_other_peoples_file_names_and_stems_go(many):
    people = SubjectPeople(many, [WILL])
    got = people.redact_text("Files: wpike_cv.pdf, wpike_cv, Wendell_Pike_CV.docx, Wendell_Pike_CV, wng-2024.pdf, "
                             "wng-2024; mine: will_hartley_cv.pdf")
    for gone in ("wpike", "Wendell_Pike", "wng-2024"):
        assert gone.casefold() not in got.casefold(), (gone, got)
    assert got.endswith("mine: will_hartley_cv.pdf")


def test_a_two_letter_surname_goes_as_a_name_or_beside_its_name(many):
    people = SubjectPeople(many, [WILL])
    got = people.redact_text("Ng was better; ask wendy ng; Ng's CV; ng, wendy")
    assert _gone("ng", got) and _gone("wendy", got), got
    assert people.redact_text("going along, ng alone") == "going along, ng alone"  # not a lone lower-case "ng"


def test_an_id_prefix_of_eight_hex_digits_or_more_goes(many):
    people = SubjectPeople(many, [WILL])
    got = people.redact_text(f"original {WP[:12]}-wpike_cv.pdf, id {WP[:8]}, {WP.upper()[:10]}; mine {WILL[:12]}")
    assert WP[:8] not in got.casefold(), got
    assert got.endswith(f"mine {WILL[:12]}")
    assert people.redact_text(f"short {WP[:6]}, other deadbeef00") == f"short {WP[:6]}, other deadbeef00"


def test_a_blind_pseudonym_of_another_goes_and_the_subjects_stays(many):
    people = SubjectPeople(many, [WILL])
    theirs, mine = pseudonym(WP), pseudonym(WILL)
    got = people.redact_text(f"{theirs} beat {mine}; ({theirs.split()[-1]})")
    assert theirs.split()[-1] not in got and got == f"{OTHER} beat {mine}; ({OTHER})"
    assert people.names_subject(mine) and not people.names_subject(theirs)


def test_a_namesake_is_compared_word_by_word(tmp_path):
    cat = Catalog(tmp_path / "catalog.sqlite3")
    _store(cat, "c1", make_cv("Carolina Li Nash", ["cln@nash.test"]), [])
    _store(cat, "l1", make_cv("Li Na", ["lina@na.test"]), [])
    _store(cat, "l2", make_cv("Li Nash", ["linash@nash.test"]), [])  # a run of her own name: hers too
    people = SubjectPeople(cat, ["c1"])
    assert people.redact_text("Li Na and Carolina Li Nash; li na") == f"{OTHER} and Carolina Li Nash; {OTHER}"
    cat.close()


def test_the_subjects_name_parts_are_found_as_a_name_is_written(many):
    people = SubjectPeople(many, [WILL])
    assert people.names_subject("Will's CV") and people.names_subject("WILL HARTLEY") and people.names_subject("Hartley")
    assert not people.names_subject("we will call") and not people.names_subject("who will relocate?")


def test_two_thousand_people_are_set_up_quickly(tmp_path):
    cat = Catalog(tmp_path / "catalog.sqlite3")
    for i in range(2000):
        cid, tag = f"{i:016x}", "".join(chr(97 + int(d)) for d in str(i))  # 7 -> "h"
        _doc(cat, cid, make_cv(f"Person{tag} Surname{tag} Ng", [f"p{i}@x.test"], [f"+44 7700 9{i:05d}"]),
             f"p{i}_cv.pdf", f"/cvs/p{i}_cv.pdf", [f"Worked on project {i} for the northern depot"])
    start = time.perf_counter()
    people = SubjectPeople(cat, [f"{0:016x}"])
    assert time.perf_counter() - start < 1.0
    assert people.redact_text("Personh Surnameh Ng, surnamei and p9_cv.pdf") == f"{OTHER}, {OTHER} and {OTHER}"
    cat.close()
