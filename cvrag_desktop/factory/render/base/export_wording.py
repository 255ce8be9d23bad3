"""Fixed wording of profile exports (LinkedIn "Save to PDF") and their date lines.

An export prints its furniture (section names, month names, "Present", the length of
each position, "Page 1 of 3") in the language of the site's interface, which is the CV's
heading language here; the member's own text (titles, employers, degrees) stays in the
CV's language. Dates are printed only as precisely as the ground truth knows them, so a
year-only role reads "2016 - 2019 (3 years)" and never invents a month.
"""

from __future__ import annotations

import datetime as dt

from cvrag_desktop.factory.profiles import factory_data

# fmt: off
EXPORT: dict[str, dict[str, str]] = {
    "en": {"contact": "Contact", "skills": "Top Skills", "languages": "Languages", "certifications": "Certifications",
           "honors": "Honors-Awards", "summary": "Summary", "experience": "Experience", "education": "Education",
           "page": "Page {n} of {total}", "present": "Present", "of": "", "mobile": "Mobile",
           "old_skills": "Skills & Expertise", "old_page": "Page{n}", "old_contact": "Contact {first} on LinkedIn"},
    "de": {"contact": "Kontakt", "skills": "Top-Kenntnisse", "languages": "Sprachen", "certifications": "Zertifikate",
           "honors": "Auszeichnungen", "summary": "Zusammenfassung", "experience": "Berufserfahrung",
           "education": "Ausbildung", "page": "Seite {n} von {total}", "present": "heute", "of": "",
           "mobile": "Mobil", "old_skills": "Kenntnisse und Fähigkeiten", "old_page": "Seite{n}",
           "old_contact": "{first} auf LinkedIn kontaktieren"},
    "fr": {"contact": "Coordonnées", "skills": "Principales compétences", "languages": "Langues",
           "certifications": "Certifications", "honors": "Distinctions", "summary": "Résumé",
           "experience": "Expérience", "education": "Formation", "page": "Page {n} sur {total}",
           "present": "aujourd’hui", "of": "", "mobile": "Mobile", "old_skills": "Compétences et expertise",
           "old_page": "Page{n}", "old_contact": "Contacter {first} sur LinkedIn"},
    "es": {"contact": "Contactar", "skills": "Aptitudes principales", "languages": "Idiomas",
           "certifications": "Certificaciones", "honors": "Reconocimientos y premios", "summary": "Extracto",
           "experience": "Experiencia", "education": "Educación", "page": "Página {n} de {total}",
           "present": "actualidad", "of": "de", "mobile": "Móvil", "old_skills": "Aptitudes y conocimientos",
           "old_page": "Página{n}", "old_contact": "Contactar con {first} en LinkedIn"},
    "it": {"contact": "Contatti", "skills": "Competenze principali", "languages": "Lingue",
           "certifications": "Certificazioni", "honors": "Riconoscimenti e premi", "summary": "Riepilogo",
           "experience": "Esperienza", "education": "Formazione", "page": "Pagina {n} di {total}",
           "present": "Presente", "of": "", "mobile": "Cellulare", "old_skills": "Competenze ed esperienze",
           "old_page": "Pagina{n}", "old_contact": "Contatta {first} su LinkedIn"},
    "pt": {"contact": "Contato", "skills": "Principais competências", "languages": "Idiomas",
           "certifications": "Certificações", "honors": "Prêmios", "summary": "Resumo", "experience": "Experiência",
           "education": "Formação acadêmica", "page": "Página {n} de {total}", "present": "o momento", "of": "de",
           "mobile": "Celular", "old_skills": "Competências e especializações", "old_page": "Página{n}",
           "old_contact": "Entre em contato com {first} no LinkedIn"},
    "pl": {"contact": "Dane kontaktowe", "skills": "Najważniejsze umiejętności", "languages": "Języki",
           "certifications": "Certyfikaty", "honors": "Wyróżnienia i nagrody", "summary": "Podsumowanie",
           "experience": "Doświadczenie", "education": "Wykształcenie", "page": "Strona {n} z {total}",
           "present": "obecnie", "of": "", "mobile": "Komórka", "old_skills": "Umiejętności i specjalizacje",
           "old_page": "Strona{n}", "old_contact": "Skontaktuj się z: {first} na LinkedIn"},
    "nl": {"contact": "Contactgegevens", "skills": "Belangrijkste vaardigheden", "languages": "Talen",
           "certifications": "Certificeringen", "honors": "Prijzen en onderscheidingen", "summary": "Samenvatting",
           "experience": "Ervaring", "education": "Opleiding", "page": "Pagina {n} van {total}", "present": "heden",
           "of": "", "mobile": "Mobiel", "old_skills": "Vaardigheden en expertise", "old_page": "Pagina{n}",
           "old_contact": "Neem contact op met {first} op LinkedIn"},
}

# (one, few, many) forms of "year" and "month"; "few" differs from "many" only in Polish.
_UNITS: dict[str, tuple[tuple[str, str, str], tuple[str, str, str], str]] = {
    "en": (("year", "years", "years"), ("month", "months", "months"), "less than a year"),
    "de": (("Jahr", "Jahre", "Jahre"), ("Monat", "Monate", "Monate"), "weniger als ein Jahr"),
    "fr": (("an", "ans", "ans"), ("mois", "mois", "mois"), "moins d’un an"),
    "es": (("año", "años", "años"), ("mes", "meses", "meses"), "menos de un año"),
    "it": (("anno", "anni", "anni"), ("mese", "mesi", "mesi"), "meno di un anno"),
    "pt": (("ano", "anos", "anos"), ("mês", "meses", "meses"), "menos de um ano"),
    "pl": (("rok", "lata", "lat"), ("miesiąc", "miesiące", "miesięcy"), "mniej niż rok"),
    "nl": (("jaar", "jaar", "jaar"), ("maand", "maanden", "maanden"), "minder dan een jaar"),
}

# Spoken-language proficiency as the export prints it, by CEFR key.
LEVELS: dict[str, dict[str, str]] = {
    "en": {"native": "Native or Bilingual", "c2": "Full Professional", "c1": "Full Professional",
           "b2": "Professional Working", "b1": "Limited Working", "a2": "Elementary"},
    "de": {"native": "Muttersprache oder zweisprachig", "c2": "Verhandlungssicher", "c1": "Verhandlungssicher",
           "b2": "Fließend", "b1": "Gute Kenntnisse", "a2": "Grundkenntnisse"},
    "fr": {"native": "Bilingue ou langue natale", "c2": "Capacité professionnelle complète",
           "c1": "Capacité professionnelle complète", "b2": "Capacité professionnelle",
           "b1": "Compétence professionnelle limitée", "a2": "Notions"},
    "es": {"native": "Nativo o bilingüe", "c2": "Competencia profesional completa", "c1": "Competencia profesional completa",
           "b2": "Competencia básica profesional", "b1": "Competencia básica limitada", "a2": "Competencia elemental"},
    "it": {"native": "Madrelingua o bilingue", "c2": "Conoscenza professionale completa",
           "c1": "Conoscenza professionale completa", "b2": "Conoscenza professionale",
           "b1": "Conoscenza professionale limitata", "a2": "Conoscenza elementare"},
    "pt": {"native": "Nativo ou bilíngue", "c2": "Fluente", "c1": "Fluente", "b2": "Avançado",
           "b1": "Intermediário", "a2": "Básico"},
    "pl": {"native": "Język ojczysty lub dwujęzyczność", "c2": "Pełna biegłość zawodowa",
           "c1": "Pełna biegłość zawodowa", "b2": "Biegłość zawodowa", "b1": "Ograniczona biegłość zawodowa",
           "a2": "Podstawowa znajomość"},
    "nl": {"native": "Moedertaal of tweetalig", "c2": "Volledige professionele vaardigheid",
           "c1": "Volledige professionele vaardigheid", "b2": "Professionele werkvaardigheid",
           "b1": "Beperkte werkvaardigheid", "a2": "Basiskennis"},
}

HONORS: dict[str, list[str]] = {
    "en": ["Employee of the Year", "Dean's List", "Best Team Award", "Outstanding Contribution Award"],
    "de": ["Mitarbeiter des Jahres", "Deutschlandstipendium", "Innovationspreis"],
    "fr": ["Prix de l'innovation", "Major de promotion", "Prix d'excellence"],
    "es": ["Premio Extraordinario Fin de Grado", "Premio a la Innovación", "Matrícula de Honor"],
    "it": ["Premio Eccellenza", "Borsa di studio per merito", "Premio Innovazione"],
    "pt": ["Prêmio de Inovação", "Destaque do Ano", "Bolsa de Mérito Acadêmico"],
    "pl": ["Stypendium Rektora", "Pracownik Roku", "Nagroda za innowacyjność"],
    "nl": ["Medewerker van het jaar", "Innovatieprijs", "Cum laude"],
}
# fmt: on


def export_lang(lang: str) -> str:
    """The export's interface language for a heading language (English when not translated)."""
    return lang if lang in EXPORT else "en"


def _form(n: int, forms: tuple[str, str, str], lang: str) -> str:
    if n == 1:
        return forms[0]
    if lang == "pl" and n % 10 in (2, 3, 4) and n % 100 not in (12, 13, 14):
        return forms[1]
    return forms[2] if lang == "pl" else forms[1]


def duration_text(months: int, lang: str, *, with_months: bool = True) -> str:
    """ "3 years 2 months" in ``lang`` ("less than a year" for a year-only span under a year)."""
    years_u, months_u, under = _UNITS[export_lang(lang)]
    years, rest = divmod(max(months, 0), 12)
    if not with_months:
        return f"{years} {_form(years, years_u, lang)}" if years else under
    parts = []
    if years:
        parts.append(f"{years} {_form(years, years_u, lang)}")
    if rest or not years:
        rest = rest or 1
        parts.append(f"{rest} {_form(rest, months_u, lang)}")
    return " ".join(parts)


def export_date(partial: str, lang: str) -> str:
    """ "January 2019" / "enero de 2019" / "2019" (year-only truth prints the year alone)."""
    if len(partial) < 7:
        return partial[:4]
    lang = export_lang(lang)
    month = factory_data().languages[lang].months[int(partial[5:7]) - 1]
    joiner = f" {EXPORT[lang]['of']} " if EXPORT[lang]["of"] else " "
    return f"{month}{joiner}{partial[:4]}"


def months_between(start: str, end: str | None, as_of: dt.date) -> tuple[int, bool]:
    """Length of a span in months counting both ends (the export's way) and whether months are known."""
    with_months = len(start) >= 7 and (end is None or len(end) >= 7)
    if not with_months:
        last = as_of.year if end is None else int(end[:4])
        return (last - int(start[:4])) * 12, False
    s = int(start[:4]) * 12 + int(start[5:7]) - 1
    e = as_of.year * 12 + as_of.month - 1 if end is None else int(end[:4]) * 12 + int(end[5:7]) - 1
    return e - s + 1, True


def export_period(start: str | None, end: str | None, is_current: bool, lang: str, as_of: dt.date) -> str:
    """ "January 2019 - Present (3 years 2 months)" in the export's language."""
    if not start:
        return ""
    lang = export_lang(lang)
    last = EXPORT[lang]["present"] if is_current or end is None else export_date(end, lang)
    months, with_months = months_between(start, None if is_current else end, as_of)
    return f"{export_date(start, lang)} - {last} ({duration_text(months, lang, with_months=with_months)})"
