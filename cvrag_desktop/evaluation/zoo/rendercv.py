"""Factory draft -> a RenderCV input (https://docs.rendercv.com), typeset by Typst in RenderCV's own themes.

RenderCV and its Typst compiler are installed at build time in a virtual environment of their own
(``build/zoo/rendercv-venv``, ``pip install "rendercv[full]"``) and run there as a child process, so
the product's environment never holds them. RenderCV writes the Typst source; the one package its
themes fetch from the Typst site (icons) is replaced by empty boxes, since a build machine is
offline. Section titles are the CV's own headings; RenderCV prints dates its own way in English
("Mar 2019 – present"). It has no headline, and it validates phone numbers: one without an
international prefix (or with "(0)" or an extension) is left out; the truth's ``zoo.not_printed``
says so."""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

from cvrag_desktop.evaluation.zoo.engines import ZooToolError, run_tool
from cvrag_desktop.factory.model import CVDraft

PACKAGE = "rendercv[full]==2.3"
# Run inside RenderCV's environment: RenderCV writes the Typst source, Typst compiles it with RenderCV's
# fonts. Its themes import the icon package "@preview/fontawesome" from the Typst package site, which a
# build machine cannot reach: the import is replaced by a local fa-icon that draws an empty box of the
# icon's size (icons are glyphs outside the text a reader needs). One JSON line per job.
_SCRIPT = """
import json, pathlib, re, sys
import rendercv_fonts, typst
from rendercv.api.functions import create_contents_of_a_typst_file_from_a_python_dictionary as source_of
STUB = "#let fa-icon(name, size: 1em, ..args) = box(width: size, height: size)[]"
for job in json.load(open(sys.argv[1], encoding="utf-8")):
    pdf = pathlib.Path(job["pdf"])
    try:
        src = source_of(job["cv"])
        if not isinstance(src, str):
            raise ValueError(json.dumps(src, default=str))
        src = re.sub(r'(?m)^#import "@preview/fontawesome:[^"]+": fa-icon$', STUB, src)
        typ = pdf.with_name("." + pdf.stem + ".typ")
        typ.write_text(src, encoding="utf-8")
        try:
            typst.compile(str(typ), output=str(pdf), font_paths=[*rendercv_fonts.paths_to_font_folders])
        finally:
            typ.unlink()
        out = {"pdf": job["pdf"], "ok": True}
    except Exception as exc:
        out = {"pdf": job["pdf"], "ok": False, "error": (type(exc).__name__ + ": " + str(exc))[:300]}
    print(json.dumps(out), flush=True)
"""
_PHONE = re.compile(r"^\+\d[\d\s.-]*$")  # what RenderCV accepts: international, no "(0)", no extension
_MARKUP = re.compile(r"([*_#\[\]`<>$\\])")


def _text(value: str) -> str:
    """A value as literal text (RenderCV reads Markdown and Typst markup in entries)."""
    return _MARKUP.sub(r"\\\1", value)


def _key(heading: str) -> str:
    return heading.replace(" ", "_")


def not_printed(draft: CVDraft) -> list[str]:
    """Truth fields RenderCV cannot print for this draft: the headline (its input has no such field),
    a phone without an international prefix (it refuses one)."""
    out = ["headline"] if draft.cv.headline else []
    return out + (["phones"] if any(not _PHONE.match(p.strip()) for p in draft.cv.phones) else [])


def to_rendercv(draft: CVDraft, theme: str, pr: dict) -> dict:
    """The RenderCV input dictionary (``cv`` + ``design``) of a draft; ``pr`` is its printed record."""
    cv, h = draft.cv, pr["headings"]
    data: dict = {"name": cv.name or ""}
    if cv.location:
        data["location"] = cv.location
    if cv.emails:
        data["email"] = cv.emails[0]
    phones = [p for p in cv.phones if _PHONE.match(p.strip())]
    if phones:
        data["phone"] = phones[0].replace(" ", "-")
    if cv.links:
        data["website"] = cv.links[0] if cv.links[0].startswith("http") else f"https://{cv.links[0]}"
    sections: dict = {}
    if pr["summary"]:
        sections[_key(h["summary"])] = [_text(pr["summary"])]
    roles = []
    for r, exp in zip(pr["roles"], reversed(cv.experiences) if pr["newest_first"] else cv.experiences, strict=True):
        item = {"company": _text(r["company"]), "position": _text(r["title"]),
                "start_date": exp.start, "end_date": "present" if exp.is_current else (exp.end or exp.start),
                "highlights": [_text(b) for b in r["bullets"]]}
        if r["location"]:
            item["location"] = _text(r["location"])
        roles.append({k: v for k, v in item.items() if v})
    sections[_key(h["experience"])] = roles
    eds = reversed(cv.education) if pr["newest_first"] else cv.education
    sections[_key(h["education"])] = [
        {k: v for k, v in {"institution": _text(e["institution"]), "area": _text(e["degree"]),
                           "start_date": ed.start, "end_date": ed.end}.items() if v}
        for e, ed in zip(pr["education"], eds, strict=True)]
    if pr["skills"]:
        sections[_key(h["skills"])] = [{"label": _text(h["skills"]), "details": _text(", ".join(pr["skills"]))}]
    if pr["languages"]:
        sections[_key(h["languages"])] = [_text(x) for x in pr["languages"]]
    if pr["certifications"]:
        sections[_key(h["certifications"])] = [_text(x) for x in pr["certifications"]]
    data["sections"] = sections
    # RenderCV prints "Last updated in <today>": the CV's own as-of date keeps a seed's document the same any day
    return {"cv": data, "design": {"theme": theme},
            "rendercv_settings": {"date": draft.spec.as_of.isoformat(), "sort_entries": "none"}}


def venv_python(root: Path) -> Path:
    """The interpreter of RenderCV's own environment under the zoo's build folder."""
    return root / "rendercv-venv" / "bin" / "python"


def install(root: Path, timeout: float = 1800) -> None:
    """Create RenderCV's environment and install it when missing (PyPI, at build time only)."""
    py = venv_python(root)
    if py.is_file() and run_tool([str(py), "-c", "import rendercv.api"], 120, "rendercv check", fail=False) is not None:
        return  # (a tool that succeeds may print nothing: only None means it failed)
    run_tool([sys.executable, "-m", "venv", str(py.parent.parent)], 300, "python -m venv")
    run_tool([str(py), "-m", "pip", "install", "-q", PACKAGE], timeout, "pip install rendercv")


def render(root: Path, jobs: list[tuple[dict, Path]], timeout: float = 900) -> dict[str, str]:
    """Typeset each (input, pdf path) with RenderCV; ``{pdf path: error}`` for the ones that failed."""
    py = venv_python(root)
    if not py.is_file():
        raise ZooToolError("RenderCV is not installed (make zoo installs it)")
    if not jobs:
        return {}
    job_file = jobs[0][1].with_name(f".rendercv-jobs-{os.getpid()}.json")
    job_file.write_text(json.dumps([{"cv": cv, "pdf": str(pdf)} for cv, pdf in jobs], ensure_ascii=False),
                        encoding="utf-8")
    try:
        out = run_tool([str(py), "-c", _SCRIPT, str(job_file)], timeout, "RenderCV") or ""
    finally:
        job_file.unlink(missing_ok=True)
    results = {}
    for line in out.splitlines():
        try:
            row = json.loads(line)
        except ValueError:
            continue
        if isinstance(row, dict) and "pdf" in row:
            results[row["pdf"]] = "" if row.get("ok") else str(row.get("error") or "failed")
    return {str(p): results.get(str(p), "RenderCV printed no result") for _, p in jobs
            if results.get(str(p), "x") != ""}
