"""Lines of private life a blind screen hides: birth date, age, nationality, gender, marital status,
religion, street address and postal code.

CVs (Europass above all) print them in the contact block, labelled ("Date of birth: …",
"Staatsangehörigkeit …", "Estado civil: …") or as a bare street line ("12 Baker Street",
"Hauptstraße 5", "ul. Długa 3", "28013 Madrid"). This module recognises both in the eight
languages the app reads (en, de, fr, es, it, pt, pl, nl): cue words as data, patterns for street
numbers and postal codes. :func:`personal_kind` classifies one printed line (the preview boxes
it); :func:`redact_personal` cuts the values out of free text (table, detail, snippets, chat).
Qt-free and dependency-free.
"""

from __future__ import annotations

import re

# kind -> label words (lower case; spaces allowed). The label stays in text, the value goes.
CUES: dict[str, tuple[str, ...]] = {
    "birth": (
        "date of birth", "birth date", "birthdate", "birthday", "place of birth", "born", "dob", "d.o.b.",
        "geburtsdatum", "geburtsort", "geburtstag", "geboren am", "geboren in", "geboren", "geb.",
        "date de naissance", "lieu de naissance", "né le", "née le", "né(e) le", "né à", "née à",
        "fecha de nacimiento", "lugar de nacimiento", "f. nacimiento", "nacido el", "nacida el", "nacimiento",
        "data di nascita", "luogo di nascita", "nato il", "nata il", "nato a", "nata a",
        "data de nascimento", "local de nascimento", "nascido em", "nascida em", "naturalidade",
        "data urodzenia", "miejsce urodzenia", "urodzony", "urodzona", "ur.",
        "geboortedatum", "geboorteplaats", "geboren op", "geb. datum",
    ),
    "age": ("age", "alter", "âge", "edad", "età", "idade", "wiek", "leeftijd"),
    "nationality": (
        "nationality", "citizenship", "citizen of", "staatsangehörigkeit", "staatsbürgerschaft", "nationalität",
        "nationalité", "citoyenneté", "nacionalidad", "ciudadanía", "nazionalità", "cittadinanza",
        "nacionalidade", "cidadania", "narodowość", "obywatelstwo", "nationaliteit",
    ),
    "gender": ("gender", "sex", "geschlecht", "sexe", "genre", "sexo", "género", "gênero", "sesso", "genere",
               "płeć", "geslacht"),
    "marital": (
        "marital status", "civil status", "family status", "familienstand", "situation familiale",
        "situation de famille", "état civil", "estado civil", "stato civile", "stan cywilny",
        "burgerlijke staat",
    ),
    "religion": ("religion", "religious", "konfession", "religionszugehörigkeit", "religión", "religione",
                 "religião", "wyznanie", "religia", "religie"),
    "address": (
        "address", "home address", "postal address", "residence", "adresse", "anschrift", "wohnort", "wohnhaft",
        "domicile", "dirección", "direccion", "domicilio", "indirizzo", "residenza", "endereço", "morada",
        "residência", "adres", "adres zamieszkania", "miejsce zamieszkania", "woonplaats", "woonadres",
        "zip", "zip code", "postal code", "postcode", "plz", "code postal", "código postal", "cap", "cep",
        "kod pocztowy",
    ),
}
# Words that state a marital status or religion on their own ("verheiratet, 2 Kinder").
STATUS_WORDS = (
    "married", "unmarried", "divorced", "widowed", "verheiratet", "ledig", "geschieden", "verwitwet",
    "marié", "mariée", "célibataire", "divorcé", "divorcée", "casado", "casada", "soltero", "soltera",
    "divorciado", "divorciada", "coniugato", "coniugata", "celibe", "nubile", "solteiro", "solteira",
    "żonaty", "zamężna", "kawaler", "panna", "rozwiedziony", "rozwiedziona", "gehuwd", "ongehuwd",
    "getrouwd", "alleenstaand", "römisch-katholisch", "evangelisch", "katholisch", "catholic", "protestant",
    "muslim", "musulman", "católico", "cattolico",
)
_CODE_LABELS = {"cap", "cep", "zip", "plz"}  # only with digits after them ("CAP theorem" is no postal code)
GENDER_VALUES = (
    "male", "female", "m", "f", "w", "männlich", "weiblich", "divers", "homme", "femme", "masculin", "féminin",
    "hombre", "mujer", "masculino", "femenino", "feminino", "maschile", "femminile", "maschio", "femmina",
    "mężczyzna", "kobieta", "męska", "żeńska", "man", "vrouw", "mannelijk", "vrouwelijk", "non-binary",
)
# after a label without a colon these words say it is prose or a title ("Age of Empires", "Religion and Society")
_CONNECTORS = {"of", "and", "for", "the", "in", "to", "&", "de", "di", "du", "des", "del", "della", "da", "do",
               "von", "und", "für", "der", "die", "das", "et", "y", "e", "i", "w", "z", "van", "en", "het"}
_RELIGION_ONLY = {"römisch-katholisch", "evangelisch", "katholisch", "catholic", "protestant", "muslim",
                  "musulman", "católico", "cattolico"}

_L = r"A-Za-zÀ-ÖØ-öø-ÿĀ-ž"
_labels = sorted({w for ws in CUES.values() for w in ws}, key=len, reverse=True)
_LABEL_KIND = {w: k for k, ws in CUES.items() for w in ws}
# a label that begins the line or follows a separator, then ":" / "-" or the value right after it
_LABEL_RE = re.compile(
    r"(?i)(?:^|(?<=[\s|•·,;(]))(" + "|".join(re.escape(w) for w in _labels) + rf")(?![{_L}])\s*(?:[:：\-–]\s*|(?=\s))")
_VALUE_RE = re.compile(r"[^\n;|•·]{1,300}")  # bounded: a line of many labels costs linear time
_NUM = r"(?<!\d)(?!(?:19|20)\d\d\b)\d{1,4}"  # a house number, never a year ("Corso di laurea 2019")
_STREET_WORDS_EN = r"Street|St\.?|Road|Rd\.?|Avenue|Ave\.?|Lane|Ln\.?|Drive|Dr\.?|Boulevard|Blvd\.?|Way|Court|Ct\.?|" \
                   r"Place|Pl\.?|Terrace|Crescent|Close|Square|Sq\.?|Parkway|Pkwy\.?|Highway|Hwy\.?"
STREET_RES = (
    # en: "12 Baker Street", "1600 Amphitheatre Pkwy", "Apt 4, 221B Baker St."
    re.compile(rf"\b(?!(?:19|20)\d\d\b)\d{{1,5}}[A-Za-z]?,?[ \t]+(?:(?:[A-Z][{_L}'.-]{{0,30}}|\d{{1,4}}(?:st|nd|rd|th))[ \t]+){{1,4}}(?:{_STREET_WORDS_EN})"
               rf"(?![{_L}])"),
    # de / nl compounds with a number: "Hauptstraße 5", "Kerkstraat 12a"
    re.compile(rf"(?i)(?<![{_L}-])[{_L}-]{{0,40}}(?:straße|strasse|str\.|gasse|allee|platz|weg|straat|laan|gracht|plein|kade|"
               rf"dijk|singel|steeg)[ \t]*{_NUM}[ \t]?[a-z]?\b"),
    # fr: "12 rue de la Paix", "3 bis, avenue Foch" (a capitalised name after the street word)
    re.compile(r"(?i:\b\d{1,4}(?:\s?(?:bis|ter))?,?[ \t]+(?:rue|avenue|av\.|bd|boulevard|chemin|allée|impasse|"
               r"place|quai|route)[ \t]+(?:(?:de|du|des|la|le|l'|d')[ \t]*){0,4})[A-ZÀ-ÖØ-Þ]\w{0,40}"),
    # es / it / pt / pl / fr: the street word first, a number after: "Calle Mayor 5", "Via Roma, 12", "ul. Długa 3"
    re.compile(rf"\b(?:Calle|C/|Avda\.?|Avenida|Av\.|Paseo|Plaza|Pza\.?|Carrer|Camino|Via|Viale|Corso|Piazza|"
               rf"Vicolo|Rua|Travessa|Praça|Largo|Alameda|Estrada|Rue|ul\.|Ul\.|ulica|Al\.|Aleja|Os\.)[ \t]+"
               rf"[{_L}0-9 .'-]{{2,40}}?,?[ \t]*(?:n[º°o.][ \t]*)?{_NUM}[A-Za-z]?\b"),
)
_ACRONYMS = r"IT|QA|HR|UX|UI|BI|AI|ML|PM|VP|SW|HW|DB|PR|RD|CS|EE|ME|GM|MD|BA|MA|MS|BS"
POSTAL_RES = (
    re.compile(r"\b[A-Z][a-z]{1,40}(?:\s[A-Z][a-z]{1,40})?,\s*[A-Z]{2}\s+\d{5}(?:-\d{4})?\b"),  # us: "Austin, TX 78701"
    re.compile(r"\b[A-Z]{1,2}\d[A-Z\d]?\s\d[A-Z]{2}\b"),  # uk: "SW1A 1AA"
    re.compile(rf"\b(?:[A-Z]{{1,2}}-)?\d{{5}},?[ \t]+[A-ZÀ-ÖØ-Þ][{_L}'-]{{0,40}}"),  # de/fr/es/it: "28013 Madrid"
    re.compile(rf"\b(?:[A-Z]{{1,2}}-)\d{{4}}[ \t]+[A-ZÀ-ÖØ-Þ][{_L}'-]{{0,40}}"),  # at/ch/be with a country prefix: "A-1010 Wien"
    # nl: "1012 AB Amsterdam"; a year before a job acronym ("2019 IT Manager") is no postcode
    re.compile(rf"\b(?!(?:19|20)\d\d[ \t]?(?:{_ACRONYMS})\b)[1-9]\d{{3}}[ \t]?[A-Z]{{2}}[ \t]+[A-Z][{_L}'-]{{0,40}}"),
    re.compile(rf"\b\d{{2}}-\d{{3}}[ \t]+[A-ZÀ-ÖØ-ÞŁŚŻŹĆ][{_L}'-]{{0,40}}"),  # pl: "00-950 Warszawa"
    re.compile(r"\b\d{4}-\d{3}[ \t]+[A-Z]\w{0,40}|\b\d{5}-\d{3}\b"),  # pt: "1000-001 Lisboa", br CEP "01310-100"
)
_STATUS_RE = re.compile(r"(?i)(?<![\w-])(" + "|".join(re.escape(w) for w in STATUS_WORDS) + r")(?![\w-])")
_END = r"(?=\s*(?:$|[,;|)•·/]))"  # "34 años, casado"; never "20 años en banca"
_AGE_RE = re.compile(rf"(?i)\b(?:1[6-9]|[2-7]\d)\s*(?:years old|yrs old|y\.o\.|jahre alt|jaar oud|"
                     rf"(?:jahre|ans|años|anni|anos|lat|jaar){_END})")
YEAR_RANGE = re.compile(r"\b(19|20)\d{2}\s*[–-]\s*((19|20)\d{2}|present|now|heute|actual)", re.I)


def _value_fits(kind: str, rest: str) -> bool:
    """Whether the words after a label printed without a colon read as its value."""
    words = rest.split()
    if not words:
        return False
    first = words[0].casefold().strip(".,;:()")
    if kind in ("address", "birth", "age"):
        return bool(re.search(r"\d", rest)) and (kind != "age" or rest[:1].isdigit())
    if kind == "gender":
        return first in GENDER_VALUES
    return len(words) <= 4 and first not in _CONNECTORS


def _label_hits(line: str) -> list[re.Match]:
    out = []
    for m in _LABEL_RE.finditer(line):
        word = m.group(1).casefold()
        kind = _LABEL_KIND[word]
        rest = line[m.end():m.end() + 300].strip()  # a value's reach (a line of labels stays linear)
        colon = any(c in m.group(0)[len(m.group(1)):] for c in ":：")
        before = line[:m.start()].rstrip()
        if word in _CODE_LABELS and not re.match(r"[:\s]*[A-Z]{0,2}-?\d", line[m.end():]):
            continue
        if not colon:  # no colon: it must begin the line or a field, and what follows must look like its value
            if before and before[-1] not in "|•·,;(":
                continue
            if not _value_fits(kind, rest):
                continue
        elif not rest:
            continue
        if word in ("born", "geboren", "urodzony", "urodzona") and not re.search(r"\d|\b(in|am|à|en|w|op)\b", rest):
            continue
        out.append(m)
    return out


def _status_kind(text: str) -> str | None:
    """``marital`` / ``religion`` for a short line that states one ("verheiratet, 2 Kinder", "Catholic")."""
    m = _STATUS_RE.search(text)
    if not m:
        return None
    word = m.group(1).casefold()
    if word in _RELIGION_ONLY:  # "Catholic University of Leuven" is a school
        return "religion" if len(text.split()) == 1 else None
    return "marital" if len(text.split()) <= 6 else None


def personal_kind(line: str) -> str | None:
    """The kind of private detail a printed line states (``birth``, ``age``, ``nationality``, ``gender``,
    ``marital``, ``religion``, ``address``), or None. A label alone on its line ("Nationality") counts:
    its value is printed next to or under it."""
    text = " ".join(str(line or "").split())
    if not text or len(text) > 160:
        return None
    if is_label_only(text):
        return _LABEL_KIND[text.strip(" :：-–").casefold()]
    hits = _label_hits(text)
    if hits:
        return _LABEL_KIND[hits[0].group(1).casefold()]
    if any(r.search(text) for r in STREET_RES) or any(r.search(text) for r in POSTAL_RES):
        return "address" if not YEAR_RANGE.search(text) else None
    if _AGE_RE.search(text) and len(text.split()) <= 6:
        return "age"
    return _status_kind(text)


def is_label_only(line: str) -> bool:
    """Whether the line is just a private-life label (its value is on the next line or column)."""
    text = " ".join(str(line or "").split()).strip(" :：-–")
    return bool(text) and text.casefold() in _LABEL_KIND and text.casefold() not in _CODE_LABELS


def redact_personal(text: str | None, label: str) -> str:
    """``text`` with private-life values replaced by ``label``: a labelled value up to the next
    separator or label ("Date of birth: [hidden], Nationality: [hidden]"), a street or postal-code
    match, a stated age or status. Work dates ("2019 – 2021") and other lines are left alone."""
    if not text:
        return text or ""
    out = []
    for line in str(text).split("\n"):
        hits = _label_hits(line)
        for i in range(len(hits) - 1, -1, -1):
            m = hits[i]
            value = _VALUE_RE.match(line, m.end())
            if not value or not value.group(0).strip():
                continue
            end = value.end()
            if i + 1 < len(hits) and hits[i + 1].start() < end:  # the next label ends this value
                end = hits[i + 1].start()
                while end > m.end() and line[end - 1] in " ,":
                    end -= 1
            gap = "" if line[:m.end()].endswith((" ", ":", "：")) else " "
            line = line[:m.end()] + gap + label + line[end:]
        if not YEAR_RANGE.search(line):
            for r in (*STREET_RES, *POSTAL_RES):
                line = r.sub(label, line)
        if len(line.split()) <= 6:
            line = _AGE_RE.sub(label, line)
            if _status_kind(" ".join(line.split())):
                line = _STATUS_RE.sub(label, line)
        out.append(line)
    return "\n".join(out)
