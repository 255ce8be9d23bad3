"""The house stays walkable: module sizes, folder widths and docstrings (issue 34).

* No module of ``cvrag_desktop`` is over 400 lines: one that grows past it is split along a seam.
* No folder holds more than 15 modules flat, unless ``docs/architecture.md`` names it under
  "Wide folders" with the reason.
* Every module says what it holds in a docstring.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import cvrag_desktop

PKG = Path(cvrag_desktop.__file__).parent
DOC = PKG.parent / "docs" / "architecture.md"
MAX_LINES = 400
MAX_FLAT = 15


def modules() -> list[Path]:
    """Every Python file of the package."""
    return sorted(PKG.rglob("*.py"))


def wide_folders_allowed(text: str) -> set[str]:
    """The folders the architecture map allows to be wide: backticked paths in its "Wide folders" section."""
    m = re.search(r"^## Wide folders\n(.*?)(?=^## |\Z)", text, re.S | re.M)
    return set(re.findall(r"`(cvrag_desktop/[\w/]+?)/?`", m.group(1))) if m else set()


def too_wide(files: list[Path], allowed: set[str]) -> list[str]:
    """Folders with more than MAX_FLAT modules side by side (``__init__`` not counted) and not allowed."""
    counts: dict[Path, int] = {}
    for f in files:
        if f.name != "__init__.py":
            counts[f.parent] = counts.get(f.parent, 0) + 1
    out = []
    for folder, n in sorted(counts.items()):
        rel = folder.relative_to(PKG.parent).as_posix()
        if n > MAX_FLAT and rel not in allowed:
            out.append(f"{rel}: {n} modules")
    return out


def test_no_module_is_over_400_lines():
    long = [f"{f.relative_to(PKG.parent)}: {n} lines" for f in modules()
            if (n := len(f.read_text(encoding="utf-8").splitlines())) > MAX_LINES]
    assert not long, "\n".join(long)


def test_no_folder_is_wider_than_15_modules_unless_the_map_says_why():
    allowed = wide_folders_allowed(DOC.read_text(encoding="utf-8"))
    assert not too_wide(modules(), allowed), "\n".join(too_wide(modules(), allowed))


def test_every_module_has_a_docstring():
    bare = [str(f.relative_to(PKG.parent)) for f in modules()
            if f.read_text(encoding="utf-8").strip() and ast.get_docstring(ast.parse(f.read_text(encoding="utf-8"))) is None]
    assert not bare, bare


def test_the_checks_see_a_wide_folder_and_its_allowance(tmp_path):
    """The width check itself: 16 modules flat fail until the map names the folder."""
    folder = tmp_path / "cvrag_desktop" / "wide"
    folder.mkdir(parents=True)
    files = [folder / f"m{i}.py" for i in range(16)] + [folder / "__init__.py"]
    global PKG
    saved, PKG = PKG, tmp_path / "cvrag_desktop"
    try:
        assert too_wide(files, set()) == ["cvrag_desktop/wide: 16 modules"]
        doc = "# Map\n## Wide folders\n- `cvrag_desktop/wide/`: one renderer per family\n## Other\n"
        assert too_wide(files, wide_folders_allowed(doc)) == []
        assert too_wide(files[:15] + files[16:], set()) == []
    finally:
        PKG = saved
