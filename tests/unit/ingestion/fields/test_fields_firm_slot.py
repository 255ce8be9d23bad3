"""The section's own employer slot decides between a surname firm that is also a town and a place line."""

from __future__ import annotations

from cvrag_desktop.ingestion.fields.firm_slot import pick_by_slot, section_slot, slot_of
from cvrag_desktop.ingestion.fields.history import parse_experiences
from cvrag_desktop.ingestion.layout.reading_order import TextLine


def _lines(rows: list[str]) -> list[TextLine]:
    out, y = [], 100.0
    for text in rows:
        bold = not text.startswith("•")
        out.append(TextLine(text=text, page=0, bbox=(57, y, 57 + 5 * len(text), y + 12), size=10.5 if bold else 10,
                            bold=bold))
        y += 13
    return out


def _roles(rows: list[str]) -> list[tuple[str | None, str | None, str | None]]:
    lines = _lines(rows)
    return [(e.title, e.company, e.location) for e, _ in parse_experiences(lines, list(range(len(lines))))]


def test_a_town_named_firm_on_the_title_line_is_the_employer_when_the_section_prints_firms_there():
    # "Preston" is a town in the places list and a surname firm here; the place line below is where
    roles = _roles([
        "Staff Accountant, Harlow Ledger Ltd", "Vila Nova do Sul\t03/2022 – 05/2024", "• Closed the monthly books.",
        "Accounts Assistant, Preston", "Quinta das Flores\t01/2019 – 02/2022", "• Reconciled the bank accounts.",
        "Bookkeeper, Brandt Sohn GmbH", "Alto da Serra\t06/2016 – 12/2018", "• Kept the ledgers.",
    ])
    assert [r[1] for r in roles] == ["Harlow Ledger Ltd", "Preston", "Brandt Sohn GmbH"]
    assert roles[1][2] == "Quinta das Flores"


def test_a_town_named_firm_followed_by_its_place_on_one_line_is_the_employer():
    roles = _roles(["Charge Nurse", "Preston, Quinta das Flores\t2019 – 2022", "• Led the night shift."])
    assert roles[0][:2] == ("Charge Nurse", "Preston")


def test_without_a_clear_majority_no_slot_is_claimed():
    assert section_slot([(0, True), (1, False)]) is None
    assert section_slot([(0, True), (0, True), (1, False)]) == (0, True)
    assert section_slot([None, None]) is None


def test_only_a_single_candidate_in_the_slot_is_picked():
    from cvrag_desktop.ingestion.fields.entries import segment_entries

    lines = _lines(["Bookkeeper, Preston", "Quinta das Flores\t2019 – 2022", "• Kept the ledgers."])
    entry = segment_entries(lines, list(range(len(lines))))[0]
    title = ("Bookkeeper", 0)
    firm, place = ("Preston", 0), ("Quinta das Flores", 1)
    assert slot_of(entry, firm, title) == (0, True)
    assert slot_of(entry, place, title) == (1, False)
    assert pick_by_slot(entry, [firm, place], title, (0, True)) == firm
    assert pick_by_slot(entry, [firm, ("Other", 0)], title, (0, True)) is None
