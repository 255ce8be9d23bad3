"""Experience entries whose header wrapped in the middle of a place name."""

from __future__ import annotations

from cvrag_desktop.ingestion.fields.history import parse_experiences
from cvrag_desktop.ingestion.layout.reading_order import TextLine


def _lines(rows: list[str]) -> list[TextLine]:
    out, y = [], 100.0
    for text in rows:
        bold = not text.startswith("•")
        out.append(TextLine(text=text, page=0, bbox=(57, y, 57 + 5 * len(text), y + 12), size=10.5 if bold else 10,
                            bold=bold and "\t" not in text))
        y += 13
    return out


def test_place_wrapped_onto_the_date_line_goes_back_to_the_place():
    lines = _lines(["Senior Backend Developer — Rogers-Holmes, New", "Jeremyhaven\t05/2024 — 06/2026",
                    "• Trained 7 new colleagues on Java.",
                    "Software Engineer — Clark-Hawkins, Seanburgh\t03/2023 — 03/2024",
                    "• Built the billing service."])
    got = [(e.title, e.company, e.location) for e, _ in parse_experiences(lines, list(range(len(lines))))]
    assert got[0] == ("Senior Backend Developer", "Rogers-Holmes", "New Jeremyhaven")
    assert got[1][:2] == ("Software Engineer", "Clark-Hawkins")


def test_two_line_header_title_then_company_is_not_joined():
    lines = _lines(["Senior Engineer", "Google\t2020 – 2022", "• Built search ranking features.",
                    "Engineer", "Globex\t2018 – 2020", "• Maintained the billing pipeline."])
    got = [(e.title, e.company) for e, _ in parse_experiences(lines, list(range(len(lines))))]
    assert got == [("Senior Engineer", "Google"), ("Engineer", "Globex")]


def test_pieces_that_cannot_be_employers():
    from cvrag_desktop.ingestion.fields.history import plausible_employer

    assert not plausible_employer("• Implemented the billing service")
    assert not plausible_employer("using Kotlin and Ktor. I learned a lot")
    assert not plausible_employer("Tech stack: Elasticsearch")
    assert not plausible_employer("Technologies : Java 8")
    assert not plausible_employer("12/03/2022 AWS Certified Developer")
    assert plausible_employer("da Conceição Fernandes - EI")
    assert plausible_employer("eBay")
    assert plausible_employer("Figma")


def test_a_bulleted_employer_line_with_its_place_heads_an_entry():
    from cvrag_desktop.ingestion.fields.entries import is_body_line
    from cvrag_desktop.ingestion.fields.history import parse_experiences
    from cvrag_desktop.ingestion.layout.reading_order import TextLine

    assert not is_body_line("• Initrode\tDenver, CO", None)
    assert is_body_line("• Built the billing service in Go", None)
    rows = ["• Initrode\tDenver, CO", "Backend Engineer\tMar 2019 – Present", "◦ Built the billing service in Go",
            "• Globex\tAustin, TX", "Developer\tJan 2016 – Feb 2019", "◦ Maintained the reporting jobs"]
    lines = [TextLine(text=t, page=0, bbox=(40, 12 * i, 400, 12 * i + 10), size=10, bold=False) for i, t in enumerate(rows)]
    roles = [(e.title, e.company) for e, _ in parse_experiences(lines, list(range(len(rows))))]
    assert roles == [("Backend Engineer", "Initrode"), ("Developer", "Globex")]


def test_an_unbulleted_achievement_line_is_not_an_employer():
    from cvrag_desktop.ingestion.fields.history import plausible_employer

    assert not plausible_employer("Ported the game to a new platform")
    assert not plausible_employer("Developed two prototypes of battle systems")
    assert plausible_employer("United Airlines")
