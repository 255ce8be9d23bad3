"""Build the factual skeleton of a synthetic CV (no LLM, no prose).

A candidate gets a profile and seniority, a Faker identity in the CV's locale, an
education that ends before the first job, and a work history generated oldest-first
with realistic tenures, occasional gaps and promotions, and (usually) a current role.
Prose (summary, bullets) is added by :mod:`cvrag_desktop.factory.enrich`.
"""

from __future__ import annotations

import math
import random
import re
import threading

from faker import Faker

from cvrag_desktop.domain import Education, Experience, NormalizedCV
from cvrag_desktop.factory import hardcases
from cvrag_desktop.factory.dates import month_index, month_iso, precision_of, truncate
from cvrag_desktop.factory.model import CVDraft, CVSpec, DateStyle, RenderHints
from cvrag_desktop.factory.profiles import (
    FOREIGN_HEADING_LANGS,
    TIERS,
    FactoryData,
    LanguagePack,
    Profile,
    factory_data,
)

TIER_WEIGHTS = (0.25, 0.35, 0.28, 0.12)
CAREER_YEARS = {"junior": (0.5, 3.0), "mid": (3.0, 8.0), "senior": (7.0, 16.0), "lead": (10.0, 25.0)}
SKILL_COUNT = {"junior": (6, 9), "mid": (7, 11), "senior": (8, 13), "lead": (8, 14)}
ACCENTS = ((0.13, 0.30, 0.52), (0.55, 0.12, 0.18), (0.10, 0.42, 0.36), (0.30, 0.30, 0.30), (0.42, 0.22, 0.55))
OTHER_LANGUAGES = ("English", "French", "German", "Italian", "Portuguese", "Spanish", "Catalan", "Dutch")


_local = threading.local()


def seeded_faker(locale: str, seed: int) -> Faker:
    """This thread's Faker for ``locale``, re-seeded (instances are costly to create and not
    thread-safe, so each thread keeps its own and concurrent batches stay deterministic)."""
    cache: dict[str, Faker] = _local.__dict__.setdefault("fakers", {})
    fake = cache.get(locale)
    if fake is None:
        fake = cache[locale] = Faker(locale)
        _stable_word_lists(fake)
    fake.seed_instance(seed)
    return fake


def _stable_word_lists(fake: Faker) -> None:
    """Sort provider lists Faker builds from a set (it_IT ``cities``): their order, and so the
    city a seed picks, would otherwise change with Python's per-process string hashing."""
    for provider in fake.providers:
        values = getattr(provider, "cities", None)
        if isinstance(values, list) and all(isinstance(v, str) for v in values):
            provider.cities = sorted(values)


def ascii_slug(text: str, sep: str = ".") -> str:
    """ "José Núñez" -> "jose.nunez" (for e-mail addresses and profile links)."""
    plain = hardcases.strip_accents(text).lower()
    return sep.join(re.findall(r"[a-z0-9]+", plain))


def gendered(option: str, female: bool) -> str:
    """Pick the masculine or feminine form of "Enfermero|Enfermera"."""
    if "|" not in option:
        return option
    masc, fem = option.split("|", 1)
    return fem if female else masc


def employer_name(fake: Faker, rng: random.Random, kind: str, pack: LanguagePack) -> str:
    """An employer of the right kind (company, hospital, school) in the locale's style."""
    patterns = pack.employers.get(kind)
    if not patterns or kind == "company":
        return fake.company()
    return rng.choice(patterns).format(
        city=fake.city(), last_name=fake.last_name(), first_name=fake.first_name()
    )


def shared_employer_pool(batch_seed: int, locale: str, kind: str, pack: LanguagePack) -> list[str]:
    """A few employers shared by many candidates of a batch (same locale and kind)."""
    rng = random.Random(f"pool:{batch_seed}:{locale}:{kind}")
    fake = seeded_faker(locale, rng.getrandbits(32))
    return [employer_name(fake, rng, kind, pack) for _ in range(5)]


def person_name(fake: Faker, locale: str, female: bool, rng: random.Random) -> str:
    """A full name: two surnames for most Spanish candidates, one or two in Brazil."""
    first = fake.first_name_female() if female else fake.first_name_male()
    surnames = [fake.last_name()]
    if (locale == "es_ES" and rng.random() < 0.85) or (locale == "pt_BR" and rng.random() < 0.4):
        surnames.append(fake.last_name())
    return " ".join([first, *surnames])


def cjk_person(fake: Faker, locale: str, female: bool) -> tuple[str, str, str]:
    """(name, reading, romanised) of a Chinese or Japanese candidate, family name first.

    A Japanese name is written "山田 太郎" with its reading in hiragana ("やまだ たろう", the
    履歴書's ふりがな); a Chinese one "王伟", no space, read in pinyin. The romanised form makes the
    e-mail address and profile links."""
    if locale == "ja_JP":
        last = fake.last_name_pair()
        first = fake.first_name_female_pair() if female else fake.first_name_male_pair()
        kana = " ".join(_hiragana(x[1]) for x in (last, first))
        return f"{last[0]} {first[0]}", kana, f"{first[2]} {last[2]}"
    first = fake.first_name_female() if female else fake.first_name_male()
    last = fake.last_name()
    roman = f"{fake.first_romanized_name()} {fake.last_romanized_name()}"
    return f"{last}{first}", "", roman


def _hiragana(katakana: str) -> str:
    return "".join(chr(ord(c) - 0x60) if "ァ" <= c <= "ヶ" else c for c in katakana)


def _tier_for_years(years: float) -> int:
    return 0 if years < 2 else 1 if years < 5 else 2 if years < 10 else 3


def _timeline(rng: random.Random, start: int, as_of: int, tier: str) -> list[tuple[int, int | None]]:
    """Roles as (start, end) month indexes, oldest first; end None for the current role."""
    current = rng.random() < 0.8 or as_of - start < 10
    stop = as_of if current else as_of - rng.randint(1, 8)
    median = {"junior": 14, "mid": 26, "senior": 32, "lead": 36}[tier]
    roles: list[tuple[int, int | None]] = []
    t = start
    while True:
        dur = max(6, min(96, int(rng.lognormvariate(math.log(median), 0.5))))
        if t + dur >= stop - 4 or len(roles) == 7:
            roles.append((t, None if current else max(stop, t + 1)))
            return roles
        roles.append((t, t + dur))
        gap = rng.randint(2, 10) if rng.random() < 0.12 else rng.choice((0, 0, 1, 1, 2))
        t += dur + gap


def _weighted_sample(items: list, weights: list[float], k: int, rng: random.Random) -> list:
    keyed = sorted(((rng.random() ** (1.0 / w), i) for i, w in enumerate(weights)), reverse=True)
    return [items[i] for _, i in keyed[:k]]


def _education(
    profile: Profile,
    info_lang: str,
    pack: LanguagePack,
    uni: list[str],
    voc: str,
    end: int,
    rng: random.Random,
) -> list[tuple[str, str, str, int, int]]:
    """Degrees (degree, field, institution, start, end) oldest first, the last ending at ``end``."""
    option = _weighted_sample(profile.degrees, [d.w for d in profile.degrees], 1, rng)[0]
    field = option.field.get(info_lang, option.field["en"])
    out: list[tuple[str, str, str, int, int]] = []
    length = {
        "bachelor": rng.choice((36, 48, 48)),
        "master": rng.choice((12, 24)),
        "phd": rng.randint(36, 54),
    }
    length["vocational"] = 24
    if option.level in ("master", "phd"):
        bach = [d for d in profile.degrees if d.level == "bachelor"] or [option]
        b = rng.choice(bach)
        b_field = b.field.get(info_lang, b.field["en"])
        b_end = end - length[option.level] - rng.choice((0, 0, 12))
        b_end -= (b_end % 12) - 5  # bachelors end in June
        out.append(
            _degree(pack, "bachelor", b_field, rng.choice(uni), b_end - length["bachelor"] + 3, b_end, rng)
        )
    inst = voc if option.level == "vocational" else rng.choice(uni)
    out.append(_degree(pack, option.level, field, inst, end - length[option.level] + 3, end, rng))
    return out


def _degree(pack: LanguagePack, level: str, field: str, inst: str, start: int, end: int, rng: random.Random):
    pattern = rng.choice(pack.degree_patterns[level])  # type: ignore[index]
    return pattern.format(field=field), field, inst, start, end


def build_base_cv(spec: CVSpec, *, ref: CVDraft | None = None, data: FactoryData | None = None) -> CVDraft:
    """Build the validated factual skeleton of one CV from its spec (deterministic).

    ``ref`` is the earlier CV a ``near_duplicate_name`` spec borrows its name from.
    """
    data = data or factory_data()
    rng = random.Random(spec.rng_key)
    fake = seeded_faker(spec.locale, rng.getrandbits(32))
    info = data.locales[spec.locale]
    lang = info.language
    pack = data.languages[lang]
    profile = data.profile(spec.profile_id) if spec.profile_id else rng.choice(data.profiles)
    tier = rng.choices(TIERS, weights=TIER_WEIGHTS)[0]
    female = rng.random() < 0.5
    reading, roman = "", ""
    if pack.family_name_first:
        name, reading, roman = cjk_person(fake, spec.locale, female)
    else:
        name = person_name(fake, spec.locale, female, rng)
    if ref is not None and ref.cv.name and "near_duplicate_name" in spec.hard_cases:
        name = hardcases.near_duplicate_name(ref.cv.name, fake.last_name(), rng)
    roman = roman or name  # the e-mail and links are made from it
    as_of = month_index(spec.as_of)
    lo, hi = CAREER_YEARS[tier]
    career_start = as_of - int(rng.uniform(lo, hi) * 12)
    edu_end = career_start - rng.randint(1, 9)
    edu_end -= (edu_end % 12) - rng.choice((5, 6))  # June or July of that year
    career_start = max(career_start, edu_end + 1)
    voc = rng.choice(info.vocational).format(city=fake.city(), last_name=fake.last_name())
    degrees = _education(profile, lang, pack, info.universities, voc, edu_end, rng)
    roles = _timeline(rng, career_start, as_of, tier)

    # Presentation choices that also fix the precision of the ground-truth dates.
    mixed = "mixed_dates" in spec.hard_cases
    if mixed:
        role_styles, present = hardcases.varied_date_styles(
            len(roles), rng, lang=lang, present_words=pack.present, seps=pack.date_seps
        )
    else:
        names, weights = zip(*pack.date_styles.items(), strict=True)
        base = DateStyle(
            style=rng.choices(names, weights=weights)[0],
            sep=rng.choice((" – ", " - ", " — ", " – ")),
            since_form=rng.random() < 0.25,
        )
        if pack.date_seps:  # a language with its own separators ("～" in Japanese)
            base.sep = rng.choice(pack.date_seps)
        role_styles, present = [base] * len(roles), rng.choice(pack.present)
    edu_style = DateStyle(
        style="year" if rng.random() < 0.6 else role_styles[-1].style, sep=role_styles[-1].sep
    )

    localized_titles = lang in profile.titles_l10n and rng.random() < 0.75
    pool = shared_employer_pool(spec.batch_seed, spec.locale, profile.employer_kind, pack)
    shared = "shared_employer" in spec.hard_cases
    experiences: list[Experience] = []
    cap = TIERS.index(tier)  # type: ignore[arg-type]
    for i, ((start, end), style) in enumerate(zip(roles, role_styles, strict=True)):
        t_idx = cap if i == len(roles) - 1 else min(cap, _tier_for_years((start - career_start) / 12))
        options = (
            profile.title_options(TIERS[t_idx], lang) if localized_titles else profile.titles[TIERS[t_idx]]
        )
        title = gendered(rng.choice(options), female)
        if experiences and rng.random() < 0.15:
            company = experiences[-1].company  # promotion inside the same employer
            if title == experiences[-1].title:
                title = gendered(rng.choice(options), female)
        elif shared and rng.random() < 0.6:
            company = rng.choice(pool)
        else:
            company = employer_name(fake, rng, profile.employer_kind, pack)
        precision = precision_of(style.style)
        experiences.append(
            Experience(
                title=title,
                company=company,
                location=fake.city() if rng.random() < 0.45 else None,
                start=month_iso(start, precision),
                end=None if end is None else truncate(month_iso(end), precision),
                is_current=end is None,
            )
        )
    education = [
        Education(
            degree=deg,
            field=field,
            institution=inst,
            start=month_iso(s, precision_of(edu_style.style)),
            end=month_iso(e, precision_of(edu_style.style)),
        )
        for deg, field, inst, s, e in degrees
    ]

    lo_k, hi_k = SKILL_COUNT[tier]
    chosen = _weighted_sample(
        profile.skills, [s.weight for s in profile.skills], rng.randint(lo_k, hi_k), rng
    )
    chosen.sort(key=lambda s: -s.weight)
    skills = list(dict.fromkeys(s.label(lang) for s in chosen))
    skill_display = (
        hardcases.choose_skill_display(skills, data.synonyms, rng) if "synonyms" in spec.hard_cases else {}
    )

    spoken = [(info.native, "native")]
    if info.native != "English":
        spoken.append(("English", rng.choice(("c2", "c1", "c1", "b2", "b2", "b1"))))
    for extra in rng.sample(
        [x for x in OTHER_LANGUAGES if x not in dict(spoken)], rng.choice((0, 0, 1, 1, 2))
    ):
        if extra == "Catalan" and spec.locale != "es_ES":
            continue
        spoken.append((extra, rng.choice(("c1", "b2", "b1", "a2"))))
    fmt = rng.choice(pack.spoken_formats or ("{name} ({level})", "{name}: {level}", "{name} – {level}"))
    spoken_lines = [
        fmt.format(name=pack.language_names[n], level=rng.choice(pack.levels[lv])) for n, lv in spoken
    ]

    n_certs = min(
        len(profile.certifications), rng.choice((0, 0, 1, 1, 2, 3)) if cap else rng.choice((0, 0, 1))
    )
    certs = rng.sample(profile.certifications, n_certs)
    cert_lines = [
        f"{c} ({month_iso(rng.randint(career_start, as_of), 'year')})" if rng.random() < 0.4 else c
        for c in certs
    ]

    email_user = ascii_slug(roman, rng.choice((".", "", "_"))) + (
        str(rng.randint(1, 99)) if rng.random() < 0.4 else ""
    )
    slug = ascii_slug(roman, "-")
    links = []
    if rng.random() < 0.6:
        links.append(f"linkedin.com/in/{slug}")
    if profile.family == "tech" and rng.random() < 0.45:
        links.append(f"github.com/{ascii_slug(roman, '')}")
    heading_lang = _heading_language(spec, lang, rng, list(FOREIGN_HEADING_LANGS))
    hpack = data.languages[heading_lang]
    last = experiences[-1]
    show_headline = rng.random() < 0.8
    cv = NormalizedCV(
        name=name,
        headline=last.title if show_headline else None,
        emails=[f"{email_user}@{fake.free_email_domain()}"],
        phones=[fake.phone_number()],
        links=links,
        location=fake.city(),
        experiences=experiences,
        education=education,
        skills=skills,
        languages=[n for n, _ in spoken],
        certifications=certs,
        sections=["contact", "experience", "education", "skills", "languages"]
        + (["certifications"] if certs else []),
    )
    hints = RenderHints(
        lang=lang,
        heading_lang=heading_lang,
        headings={k: rng.choice(v) for k, v in hpack.headings.items()},
        labels=dict(hpack.labels),
        role_styles=role_styles,
        edu_styles=[edu_style] * len(education),
        present=present,
        skill_display=skill_display,
        spoken=spoken_lines,
        certifications=cert_lines,
        newest_first=rng.random() < 0.85,
        show_headline=show_headline,
        accent=rng.choice(ACCENTS),
        font_size=rng.choice((9.0, 9.5, 10.0, 10.0, 10.5, 11.0)),
        reading=reading,
    )
    draft = CVDraft(spec=spec, profile_id=profile.id, tier=tier, cv=cv, hints=hints)
    draft.hard_cases = [c for c in spec.hard_cases if c != "synonyms" or skill_display]
    if ref is not None:
        draft.related_to = ref.spec.cv_id
    return draft


def _heading_language(spec: CVSpec, lang: str, rng: random.Random, langs: list[str]) -> str:
    if spec.layout == "localized":
        return lang
    if "foreign_headings" in spec.hard_cases:
        return rng.choice([x for x in langs if x != lang])
    return lang if lang == "en" or rng.random() < 0.65 else "en"
