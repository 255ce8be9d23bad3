"""Character cleaning and multilingual date ranges."""

from __future__ import annotations

import pytest

from cvrag_desktop.ingestion.fields.dates import find_date_ranges
from cvrag_desktop.ingestion.read.textclean import clean_text, ends_with_break_hyphen
from cvrag_desktop.text.keys import normalize_key


def test_clean_text_removes_icons_controls_and_ligatures():
    raw = "\uf0e0 john@x.com\x07 \ufb01nance \u200bteam Co\u00adfounder"
    assert clean_text(raw) == "john@x.com  finance team Co-founder".replace("  ", " ")


def test_break_hyphen_only_for_words():
    assert ends_with_break_hyphen("learn-")
    assert not ends_with_break_hyphen("2019 -")
    assert not ends_with_break_hyphen("Ltd.")


def test_normalize_key_folds_accents_case_space():
    assert normalize_key("  Máster   en  Ingeniería ") == "master en ingenieria"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Jan 2015 - Present | New York, NY", ("2015-01", None, True)),
        ("June 2014 – Sep 2014", ("2014-06", "2014-09", False)),
        ("03/2019 – heute", ("2019-03", None, True)),
        ("seit 2020", ("2020", None, True)),
        ("2019–present", ("2019", None, True)),
        ("Sep 15 - NOW", ("2015-09", None, True)),
        ("2015 年3 月– 2015 年5 月", ("2015-03", "2015-05", False)),
        ("2013 – 至今", ("2013", None, True)),
        ("marzo de 2019 - actualidad", ("2019-03", None, True)),
        ("2009 - 2011", ("2009", "2011", False)),
        ("Dec 2014", (None, "2014-12", False)),
        ("2017 – Product Manager, Google", ("2017", None, True)),
        ("März 2018 bis Juni 2020", ("2018-03", "2020-06", False)),
    ],
)
def test_date_ranges(text, expected):
    r = find_date_ranges(text)[0]
    assert (r.start, r.end, r.is_current) == expected


def test_no_dates_in_plain_text():
    assert find_date_ranges("Senior Software Engineer at Stripe") == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("sinds mei 2025", ("2025-05", None, True)),
        ("od 03.2020", ("2020-03", None, True)),
        ("sedan 2019", ("2019", None, True)),
        ("september 2025-huidig", ("2025-09", None, True)),
        ("2019 – nadal", ("2019", None, True)),
        ("od 2015 do 2019", ("2015", "2019", False)),  # a "from" word before a closed range
        ("Fra 2019 til 2021", ("2019", "2021", False)),
        ("seit 03/2018 bis 05/2020", ("2018-03", "2020-05", False)),
        ("od lis 2025", ("2025-11", None, True)),  # Polish three-letter months
        ("cze 2019 – sie 2021", ("2019-06", "2021-08", False)),
        ("Desde 2026", ("2026", None, True)),  # "Des" + "de" is no December
    ],
)
def test_since_and_present_words_of_more_languages(text, expected):
    (r,) = find_date_ranges(text)
    assert (r.start, r.end, r.is_current) == expected
    assert r.span[0] == 0  # the "from" word belongs to the range, never left over as a header piece


def test_stacked_since_word_and_a_range_end_sharing_a_row_with_a_bullet():
    """"Depuis" / "05.2024" stacked in a narrow date cell, and "– noviembre 2018 – Responsable …" where the
    range's end and the first bullet share a row: each range is put back together before anything reads it."""
    from cvrag_desktop.ingestion.layout.date_wraps import repair_wrapped_dates
    from cvrag_desktop.ingestion.layout.reading_order import TextLine

    def line(text, y):
        return TextLine(text=text, page=0, bbox=(40, y, 400, y + 10), size=10, bold=False)

    out = repair_wrapped_dates([line("Depuis\tChef de produit", 100), line("05.2024\tExemple SA", 112)])
    assert [ln.text for ln in out] == ["Depuis 05.2024\tChef de produit", "Exemple SA"]
    out = repair_wrapped_dates([line("Since\tExample Chambers — Junior Associate", 100),
                                line("December 2025 Boutique law practice", 112)])  # the row's tab was lost
    assert [ln.text for ln in out] == ["Since December 2025\tExample Chambers — Junior Associate",
                                       "Boutique law practice"]
    out = repair_wrapped_dates([line("septiembre 2015\tJefa de Producto · Ejemplo S.L.", 100),
                                line("– noviembre 2018 – Responsable de dos clientes", 112)])
    assert [ln.text for ln in out] == ["septiembre 2015 – noviembre 2018\tJefa de Producto · Ejemplo S.L.",
                                       "– Responsable de dos clientes"]


@pytest.mark.parametrize(
    ("rows", "expected"),
    [
        (("november\tHoofddocent, Universiteit Voorbeeld", "2025 — heden – Onderzoek voor zeven klanten"),
         ["november 2025 — heden\tHoofddocent, Universiteit Voorbeeld", "– Onderzoek voor zeven klanten"]),
        (("sinds februari Stagiair, Voorbeeld & Zonen", "2026\tUtrecht"),
         ["sinds februari 2026\tStagiair, Voorbeeld & Zonen", "Utrecht"]),
        (("11.2024–pres\tAnalista, Esempio SpA", "ente\t– Formazione di due colleghi."),
         ["11.2024–presente\tAnalista, Esempio SpA", "– Formazione di due colleghi."]),
        (("05/2026–Actuali Clínica Ejemplo — Enfermera", "dad\tHospital universitario"),  # the row lost its tab
         ["05/2026–Actualidad\tClínica Ejemplo — Enfermera", "Hospital universitario"]),
        (("marzo\tAnalista, Esempio SpA", "2019 Progetti per tre clienti interni"),  # a year opening prose: kept
         ["marzo\tAnalista, Esempio SpA", "2019 Progetti per tre clienti interni"]),
    ],
)
def test_date_cells_broken_over_two_rows(rows, expected):
    """A narrow date column breaks the month from its year, loses a tab, or breaks a present word mid-word."""
    from cvrag_desktop.ingestion.layout.date_wraps import repair_wrapped_dates
    from cvrag_desktop.ingestion.layout.reading_order import TextLine

    lines = [TextLine(text=t, page=0, bbox=(40, 100 + 12 * n, 400, 110 + 12 * n), size=10, bold=False)
             for n, t in enumerate(rows)]
    assert [ln.text for ln in repair_wrapped_dates(lines)] == expected


def test_the_last_of_a_list_of_years_before_a_dash_is_no_open_range():
    """"Juillet Août 2022 et 2021 - Hôtesse": summers of two years, then the title; nothing is ongoing."""
    got = find_date_ranges("Juillet Août 2022 et 2021 - Hôtesse d'accueil")
    assert [(r.start, r.end, r.is_current) for r in got] == [(None, "2022-08", False), (None, "2021", False)]
    (r,) = find_date_ranges("2017 – Product Manager")
    assert r.is_current and r.open_ended  # alone, the convention stands


def test_dashes_cjk_fonts_print_as_other_characters():
    from cvrag_desktop.ingestion.read.textclean import clean_text

    assert clean_text("博士（経済学） \u0336 北海道大学 (2016\u20122020)") == "博士（経済学） — 北海道大学 (2016–2020)"
    assert clean_text("x\u0336y") == "x\u0336y"  # a stroke over a letter is left alone
