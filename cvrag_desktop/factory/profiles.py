"""Career profiles and locale packs for the synthetic CV factory, loaded from YAML data.

Profiles (titles per seniority, weighted skills, degrees, prose) and locale packs
(headings, month names, date styles, degree patterns) live in ``resources/factory`` so
they can be extended without touching code. Everything is validated with pydantic on
load, so a typo in a data file fails loudly at start-up instead of producing odd CVs.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from cvrag_desktop.text.vocab.resources import resources_dir

Tier = Literal["junior", "mid", "senior", "lead"]
TIERS: tuple[Tier, ...] = ("junior", "mid", "senior", "lead")
LANGS: tuple[str, ...] = ("en", "es", "de", "fr", "pt", "it", "pl", "nl")
# The languages a "foreign headings" CV borrows its headings from: the first eight only, so that the
# languages added later (zh, ja) change no earlier batch (the choice is drawn from this list).
FOREIGN_HEADING_LANGS: tuple[str, ...] = LANGS
CJK_LANGS: tuple[str, ...] = ("zh", "ja")
DegreeLevel = Literal["bachelor", "master", "phd", "vocational"]
# Employers other than "company" have no legal-form suffix; their names come from the
# language pack's patterns ("Hospital Universitario de {city}", "Kancelaria {last_name}").
EmployerKind = Literal["company", "hospital", "school", "law_firm", "restaurant", "public", "university"]
SECTION_KEYS: tuple[str, ...] = (
    "contact",
    "summary",
    "experience",
    "education",
    "skills",
    "languages",
    "certifications",
)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class SkillEntry(_Strict):
    """A skill of a profile: its weight and optional spellings per language."""

    name: str
    weight: float = Field(gt=0)
    l10n: dict[str, str] = Field(default_factory=dict)

    def label(self, lang: str) -> str:
        """The skill as written in a CV of language ``lang``."""
        return self.l10n.get(lang, self.name)


class DegreeOption(_Strict):
    """A typical degree of a profile: level, weight and field name per language."""

    level: DegreeLevel
    w: float = Field(default=1.0, gt=0)
    field: dict[str, str]

    @field_validator("field")
    @classmethod
    def _needs_english(cls, v: dict[str, str]) -> dict[str, str]:
        if "en" not in v:
            raise ValueError("degree field needs an English ('en') name")
        return v


class Profile(_Strict):
    """A career profile: what a candidate of this kind is called, knows and studied."""

    id: str
    label: str
    family: str
    employer_kind: EmployerKind = "company"
    industries: list[str] = Field(min_length=1)
    titles: dict[Tier, list[str]]
    titles_l10n: dict[str, dict[Tier, list[str]]] = Field(default_factory=dict)
    skills: list[SkillEntry] = Field(min_length=6)
    degrees: list[DegreeOption] = Field(min_length=1)
    certifications: list[str] = Field(default_factory=list)
    domain: dict[str, str]
    summaries: dict[str, list[str]] = Field(default_factory=dict)
    bullets: dict[str, list[str]] = Field(default_factory=dict)

    @field_validator("skills", mode="before")
    @classmethod
    def _skills_from_mapping(cls, v: object) -> object:
        if isinstance(v, dict):
            out = []
            for name, spec in v.items():
                if isinstance(spec, dict):
                    spec = dict(spec)
                    weight = spec.pop("w", 1)
                    out.append({"name": str(name), "weight": weight, "l10n": spec})
                else:
                    out.append({"name": str(name), "weight": spec})
            return out
        return v

    @model_validator(mode="after")
    def _complete_tiers(self) -> Profile:
        missing = [t for t in TIERS if not self.titles.get(t)]
        if missing:
            raise ValueError(f"profile {self.id}: no titles for tiers {missing}")
        if "en" not in self.domain:
            raise ValueError(f"profile {self.id}: domain needs an English ('en') entry")
        return self

    def title_options(self, tier: Tier, lang: str) -> list[str]:
        """Titles for a tier in ``lang`` when the data has them, else the English ones."""
        return self.titles_l10n.get(lang, {}).get(tier) or self.titles[tier]


class LanguagePack(_Strict):
    """Everything a CV needs to be written in one language."""

    headings: dict[str, list[str]]
    months: list[str] = Field(min_length=12, max_length=12)
    months_short: list[str] = Field(min_length=12, max_length=12)
    present: list[str] = Field(min_length=1)
    since: str
    date_styles: dict[str, float]
    degree_patterns: dict[DegreeLevel, list[str]]
    language_names: dict[str, str]
    levels: dict[str, list[str]]
    employers: dict[str, list[str]]
    labels: dict[str, str]
    connectors: dict[str, str]
    # CJK conventions: dates year first ("2019年4月", "2019.04"); the separators its periods use
    # (a Japanese CV writes "～"); the name written family name first. Defaults keep the others as they are.
    year_first: bool = False
    date_seps: list[str] = Field(default_factory=list)
    family_name_first: bool = False
    spoken_formats: list[str] = Field(default_factory=list)  # "{name}（{level}）"; default: the builder's

    @model_validator(mode="after")
    def _all_sections(self) -> LanguagePack:
        missing = [s for s in SECTION_KEYS if not self.headings.get(s)]
        if missing:
            raise ValueError(f"missing headings: {missing}")
        return self


class LocaleInfo(_Strict):
    """A Faker locale: its language, native tongue and local institutions."""

    language: str
    native: str
    universities: list[str] = Field(min_length=3)
    vocational: list[str] = Field(min_length=1)


class FactoryData(_Strict):
    """All factory data files, validated together."""

    profiles: list[Profile]
    locales: dict[str, LocaleInfo]
    languages: dict[str, LanguagePack]
    industries: dict[str, dict[str, str]]
    summaries: dict[str, list[str]]
    bullets: dict[str, list[str]]
    synonyms: dict[str, list[str]]

    @model_validator(mode="after")
    def _cross_refs(self) -> FactoryData:
        for loc, info in self.locales.items():
            if info.language not in self.languages:
                raise ValueError(f"locale {loc}: unknown language {info.language}")
        for p in self.profiles:
            unknown = [i for i in p.industries if i not in self.industries]
            if unknown:
                raise ValueError(f"profile {p.id}: unknown industries {unknown}")
            if p.employer_kind != "company":
                lacking = [
                    lang for lang, pack in self.languages.items() if not pack.employers.get(p.employer_kind)
                ]
                if lacking:
                    raise ValueError(f"profile {p.id}: no {p.employer_kind} employers in languages {lacking}")
        ids = [p.id for p in self.profiles]
        if len(ids) != len(set(ids)):
            raise ValueError("duplicate profile ids")
        return self

    def profile(self, profile_id: str) -> Profile:
        """The profile with this id (KeyError when unknown)."""
        for p in self.profiles:
            if p.id == profile_id:
                return p
        raise KeyError(profile_id)

    def industry_label(self, key: str, lang: str) -> str:
        """An industry key written in ``lang``."""
        return self.industries.get(key, {}).get(lang, key)


def _read_yaml(path: Path) -> object:
    with path.open(encoding="utf-8") as fh:
        return yaml.safe_load(fh)


def load_factory_data(root: Path | None = None) -> FactoryData:
    """Read and validate every factory data file under ``root`` (default: resources/factory)."""
    root = root or resources_dir() / "factory"
    profiles: list[object] = []
    for path in sorted((root / "profiles").glob("*.yaml")):
        items = _read_yaml(path) or []
        if not isinstance(items, list):
            raise ValueError(f"{path.name}: expected a list of profiles")
        profiles.extend(items)
    loc = _read_yaml(root / "locales.yaml")
    prose = _read_yaml(root / "prose.yaml")
    syn = _read_yaml(root / "skill_synonyms.yaml") or {}
    assert isinstance(loc, dict) and isinstance(prose, dict) and isinstance(syn, dict)
    return FactoryData.model_validate(
        {
            "profiles": profiles,
            "locales": loc["locales"],
            "languages": loc["languages"],
            "industries": loc.get("industries", {}),
            "summaries": prose.get("summaries", {}),
            "bullets": prose.get("bullets", {}),
            "synonyms": {str(k): [str(a) for a in v] for k, v in syn.items()},
        }
    )


@cache
def factory_data() -> FactoryData:
    """The bundled factory data, loaded once per process."""
    return load_factory_data()
