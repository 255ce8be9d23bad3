"""Generate a batch of synthetic CVs: PDF + ground-truth JSON per CV, plus a manifest.

Stages per CV are isolated: build base → prose (template, optional LLM) → write ground
truth → image → render. A failed image or render leaves the validated ground truth on
disk and is reported per CV; one bad CV never stops the batch. Every file is written to
a temporary name and renamed, so a reader never sees half a file. Bad parameters raise
:class:`~cvrag_desktop.errors.InvalidInput` before anything is written.
"""

from __future__ import annotations

import datetime as dt
import json
import math
import os
import random
import time
from collections.abc import Callable
from pathlib import Path

from pydantic import BaseModel, Field

from cvrag_desktop.errors import InvalidInput
from cvrag_desktop.factory.avatar import make_avatar
from cvrag_desktop.factory.builder import build_base_cv
from cvrag_desktop.factory.enrich import LlmCallable, apply_template_prose, enrich_with_llm
from cvrag_desktop.factory.hardcases import HardCaseConfig, anonymised, plan_hard_cases
from cvrag_desktop.factory.model import CVDraft, CVSpec
from cvrag_desktop.factory.profiles import factory_data
from cvrag_desktop.factory.render import FONTS, FORMS, LAYOUTS, MIXED_LAYOUTS, render_pdf
from cvrag_desktop.factory.render.base.fonts import cjk_font_for, covers
from cvrag_desktop.factory.updates import build_updated_cv
from cvrag_desktop.llm import DEFAULT_ALIAS, complete_structured, llm_enabled, probe

DEFAULT_AS_OF = dt.date(2026, 11, 1)  # fixed so that a seed means the same ground truth on any day
MAX_COUNT = 100_000
MIXED_LOCALES: tuple[str, ...] = (
    "es_ES",
    "en_GB",
    "de_DE",
    "fr_FR",
    "en_US",
    "pt_BR",
    "it_IT",
    "pl_PL",
    "nl_NL",
)
# An academic CV is written by someone with an academic career: that layout draws its
# profile from these (the ones the data has), in turn, instead of from every profile.
ACADEMIC_PROFILES: tuple[str, ...] = ("researcher", "physician", "data_scientist", "ml_engineer")
# Bitstream Vera covers Latin-1 only: Polish letters (ą ę ł ś ż) would be dropped from the
# text layer, so those CVs take a DejaVu family when the batch allows one.
EXTENDED_LATIN_FONTS: dict[str, tuple[str, ...]] = {"pl_PL": ("dejavu-condensed", "dejavu-serif")}


def font_for_text(font: str, fonts: tuple[str, ...], text: str) -> str:
    """``font``, or the first family of ``fonts`` with every letter of ``text`` when ``font`` lacks one
    (a CV whose headings are in Polish while its people are English: the locale alone does not say)."""
    if covers(font, text):
        return font
    found = next((f for f in fonts if f != font and covers(f, text)), None)
    return found or cjk_font_for(text) or font


def font_for_locale(locale: str, font: str, fonts: tuple[str, ...]) -> str:
    """``font``, or a family of ``fonts`` that has the locale's letters when ``font`` lacks them."""
    covering = EXTENDED_LATIN_FONTS.get(locale)
    if not covering or font in covering:
        return font
    return next((f for f in fonts if f in covering), font)


class GenerateReport(BaseModel):
    """What a batch produced: CV ids with PDF and JSON, per-CV failures by stage, timing."""

    out_dir: str
    generated: list[str] = Field(default_factory=list)
    failed: list[dict] = Field(default_factory=list)  # {cv_id, stage, error}
    seconds: float = 0.0
    cancelled: bool = False
    notes: list[dict] = Field(default_factory=list)  # {cv_id, stage, note}: e.g. LLM prose discarded
    manifest: str | None = None


def _choices(value: str, allowed: tuple[str, ...], what: str, mixed: tuple[str, ...]) -> tuple[str, ...]:
    if not isinstance(value, str) or not value.strip():
        raise InvalidInput(f"{what} must be a name such as {allowed[0]!r} or 'mixed'")
    if value.strip() == "mixed":
        return mixed
    names = tuple(v.strip() for v in value.split(",") if v.strip())
    unknown = [v for v in names if v not in allowed]
    if unknown:
        raise InvalidInput(
            f"unknown {what} {', '.join(unknown)}; choose from {', '.join(allowed)} or 'mixed'"
        )
    return names


def _check_out_dir(out_dir: Path) -> Path:
    try:
        out_dir = Path(out_dir).expanduser()
    except TypeError as exc:
        raise InvalidInput(f"output folder must be a path, not {out_dir!r}") from exc
    if out_dir.exists() and not out_dir.is_dir():
        raise InvalidInput(f"output folder {out_dir} is a file")
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        test_file = out_dir / f".write-test-{os.getpid()}"
        test_file.write_bytes(b"")
        test_file.unlink()
    except OSError as exc:
        raise InvalidInput(f"cannot write to output folder {out_dir}: {exc.strerror or exc}") from exc
    return out_dir


def atomic_write(path: Path, data: bytes) -> None:
    """Write ``data`` to a temporary file beside ``path`` and rename it into place."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        tmp.write_bytes(data)
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()


def plan_batch(
    count: int,
    seed: int,
    *,
    locales: tuple[str, ...],
    layouts: tuple[str, ...],
    fonts: tuple[str, ...],
    as_of: dt.date,
    hard_cases: bool,
    hard_config: HardCaseConfig | None = None,
) -> list[CVSpec]:
    """Decide every CV of the batch up front (locale, layout, font, profile, hard cases); ``hard_config``
    sets the rates of the hard cases when they are on (default: the factory's)."""
    rng = random.Random(f"batch:{seed}")
    profiles = [p.id for p in factory_data().profiles]
    rng.shuffle(profiles)
    offset = rng.randrange(len(layouts))
    academic = [p for p in ACADEMIC_PROFILES if p in profiles] or profiles
    specs = []
    # When the two cycles share a factor (27 layouts, 9 locales), each layout would only ever
    # meet some locales; shifting the layout cycle by one per round of locales breaks that.
    skew = math.gcd(len(layouts), len(locales)) > 1
    for i in range(count):
        layout = layouts[(i + offset + (i // len(locales) if skew else 0)) % len(layouts)]
        specs.append(
            CVSpec(
                index=i,
                batch_seed=seed,
                cv_id=f"cv-{seed}-{i + 1:05d}",
                person_id=f"person-{seed}-{i + 1:05d}",
                locale=locales[i % len(locales)],
                layout=layout,
                font=rng.choice(fonts),
                as_of=as_of,
                profile_id=academic[i % len(academic)]
                if layout == "academic"
                else profiles[i % len(profiles)],
            )
        )
    plan_hard_cases(specs, seed, (hard_config or HardCaseConfig()) if hard_cases else HardCaseConfig.off())
    for spec in specs:  # after the hard cases, which may move a CV to its pair's locale
        spec.font = font_for_locale(spec.locale, spec.font, fonts)
    return specs


def gateway_llm() -> LlmCallable | None:
    """A ``complete(system, user, schema)`` over the project's LLM gateway, or None if unusable."""
    if not llm_enabled() or not probe().usable(DEFAULT_ALIAS):
        return None

    def call(system: str, user: str, schema: type[BaseModel]) -> object:
        messages = [{"role": "system", "content": system}, {"role": "user", "content": user}]
        return complete_structured(DEFAULT_ALIAS, messages, schema)

    return call


def build_draft(spec: CVSpec, done: dict[int, CVDraft]) -> CVDraft:
    """Facts + template prose for one spec; ``done`` holds earlier drafts it may refer to."""
    if spec.update_of is not None and spec.update_of in done:
        draft = build_updated_cv(spec, done[spec.update_of])
    else:
        ref = done.get(spec.name_like) if spec.name_like is not None else None
        draft = build_base_cv(spec, ref=ref)
    if "anonymous" in spec.hard_cases:
        draft = draft.model_copy(update={"cv": anonymised(draft.cv)})
    if spec.layout in FORMS and draft.cv.headline:  # a form has no place for a headline: none is printed
        draft = draft.model_copy(update={"cv": draft.cv.model_copy(update={"headline": None}),
                                         "hints": draft.hints.model_copy(update={"show_headline": False})})
    draft = apply_template_prose(draft)
    return draft.model_copy(update={"cv": draft.cv.with_derived(spec.as_of)})


def generate_batch(
    count: int,
    seed: int,
    out_dir: Path,
    *,
    locale: str = "es_ES",
    layout: str = "mixed",
    use_llm: bool = False,
    hard_cases: bool = True,
    with_image: bool = False,
    progress: Callable[[int, int, str], None] | None = None,
    should_cancel: Callable[[], bool] | None = None,
    font: str = "mixed",
    as_of: dt.date | None = None,
    llm: LlmCallable | None = None,
) -> GenerateReport:
    """Write ``count`` synthetic CVs (``<cv_id>.pdf`` + ``<cv_id>.json``) and ``manifest.json``.

    ``locale``/``layout``/``font`` take a name, a comma-separated list or ``"mixed"``. The same
    arguments give identical ground truth (and PDFs). ``llm`` overrides the gateway callable
    used when ``use_llm`` is true; with no usable model the template prose is kept.
    """
    started = time.perf_counter()
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise InvalidInput(f"count must be a positive whole number, not {count!r}")
    if count > MAX_COUNT:
        raise InvalidInput(f"count {count} is too large (at most {MAX_COUNT} per batch)")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise InvalidInput(f"seed must be a whole number, not {seed!r}")
    locales = _choices(locale, tuple(factory_data().locales), "locale", MIXED_LOCALES)
    layouts = _choices(layout, LAYOUTS, "layout", MIXED_LAYOUTS)
    fonts = _choices(font, FONTS, "font", FONTS)
    out = _check_out_dir(out_dir)
    as_of = as_of or DEFAULT_AS_OF
    specs = plan_batch(
        count, seed, locales=locales, layouts=layouts, fonts=fonts, as_of=as_of, hard_cases=hard_cases
    )
    report = GenerateReport(out_dir=str(out))
    complete = (llm or gateway_llm()) if use_llm else None
    if use_llm and complete is None:
        report.notes.append(
            {"cv_id": None, "stage": "enrich", "note": "no usable language model: template prose"}
        )
    referenced = {s.update_of for s in specs} | {s.name_like for s in specs}
    done: dict[int, CVDraft] = {}
    entries: list[dict] = []
    for n, spec in enumerate(specs, start=1):
        if should_cancel is not None and should_cancel():
            report.cancelled = True
            break
        entry = _generate_one(spec, out, done, referenced, complete, with_image, report, fonts)
        if entry is not None:
            entries.append(entry)
        if progress is not None:
            progress(n, count, spec.cv_id)
    manifest = {
        "generator": "cvrag-desktop factory",
        "format": 1,
        "seed": seed,
        "count": count,
        "as_of": as_of.isoformat(),
        "options": {
            "locale": locale,
            "layout": layout,
            "font": font,
            "use_llm": use_llm,
            "hard_cases": hard_cases,
            "with_image": with_image,
        },
        "cancelled": report.cancelled,
        "cvs": entries,
        "failed": report.failed,
    }
    atomic_write(out / "manifest.json", json.dumps(manifest, ensure_ascii=False, indent=1).encode())
    report.manifest = str(out / "manifest.json")
    report.seconds = round(time.perf_counter() - started, 3)
    return report


def _printed_text(draft: CVDraft) -> str:
    """Every string the renderer may print: the record, its headings, labels and render hints."""
    h = draft.hints
    parts = [draft.cv.model_dump_json(), *h.headings.values(), *h.labels.values(), str(h.present or ""),
             json.dumps(h.spoken, ensure_ascii=False, default=str),
             json.dumps(h.certifications, ensure_ascii=False, default=str)]
    return "".join(parts)


def _generate_one(
    spec: CVSpec,
    out: Path,
    done: dict[int, CVDraft],
    referenced: set[int | None],
    complete: LlmCallable | None,
    with_image: bool,
    report: GenerateReport,
    fonts: tuple[str, ...] = FONTS,
) -> dict | None:
    """Run the stages for one CV, recording failures in ``report``; return its manifest entry."""
    cv_id = spec.cv_id
    try:
        draft = build_draft(spec, done)
    except Exception as exc:  # one bad CV never stops the batch
        report.failed.append({"cv_id": cv_id, "stage": "build", "error": f"{type(exc).__name__}: {exc}"})
        return None
    if complete is not None:
        enriched, why = enrich_with_llm(draft, complete)
        if why:
            report.notes.append({"cv_id": cv_id, "stage": "enrich", "note": why})
        else:
            draft = enriched
    if spec.index in referenced:
        done[spec.index] = draft
    json_path, pdf_path = out / f"{cv_id}.json", out / f"{cv_id}.pdf"
    spec.font = font_for_text(spec.font, fonts, _printed_text(draft))
    try:
        atomic_write(json_path, json.dumps(draft.ground_truth(), ensure_ascii=False, indent=1).encode())
    except OSError as exc:
        report.failed.append({"cv_id": cv_id, "stage": "write", "error": str(exc)})
        return None
    photo = None
    if with_image:
        try:
            photo = make_avatar(draft.cv.name or cv_id, random.Random(spec.rng_key).getrandbits(32))
        except Exception as exc:
            report.failed.append({"cv_id": cv_id, "stage": "image", "error": f"{type(exc).__name__}: {exc}"})
    status = "ok"
    try:
        atomic_write(pdf_path, render_pdf(draft, layout=spec.layout, font=spec.font, photo=photo))
        report.generated.append(cv_id)
    except Exception as exc:
        report.failed.append({"cv_id": cv_id, "stage": "render", "error": f"{type(exc).__name__}: {exc}"})
        status = "render_failed"
        pdf_path.unlink(missing_ok=True)  # never leave a PDF from an earlier run beside new truth
    return {
        "cv_id": cv_id,
        "pdf": pdf_path.name if status == "ok" else None,
        "json": json_path.name,
        "status": status,
        "person_id": spec.person_id,
        "profile": draft.profile_id,
        "locale": spec.locale,
        "layout": spec.layout,
        "font": spec.font,
        "hard_cases": sorted(draft.hard_cases),
        "related_to": draft.related_to,
        "prose": draft.prose_source,
    }
