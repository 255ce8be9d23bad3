"""The core must not import Qt: GUI and CLI are two faces over services.py."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import cvrag_desktop

PKG = Path(cvrag_desktop.__file__).parent


def core_modules() -> list[str]:
    mods = []
    for f in sorted(PKG.rglob("*.py")):
        rel = f.relative_to(PKG.parent).with_suffix("")
        parts = rel.parts
        if "ui" in parts:
            continue
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        mods.append(name)
    return mods


def test_core_imports_without_pyside6():
    """Import every core module in a fresh interpreter where PySide6 cannot be imported."""
    code = (
        "import sys, importlib\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] in ('PySide6', 'PyQt5', 'PyQt6', 'shiboken6'):\n"
        "            raise ImportError('Qt is not allowed in the core: ' + name)\n"
        "sys.meta_path.insert(0, Block())\n"
        f"for m in {core_modules()!r}:\n"
        "    importlib.import_module(m)\n"
        "print('ok')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "ok" in out.stdout


def test_core_module_list_is_not_empty():
    mods = core_modules()
    assert "cvrag_desktop.services" in mods and "cvrag_desktop.ingestion.read.extract" in mods


def test_no_core_module_imports_qt_even_inside_a_function():
    """Qt lives in ``cvrag_desktop/ui/`` only: a lazy ``from PySide6 …`` in a core module is a layering leak too."""
    import re

    leaks = []
    for f in sorted(PKG.rglob("*.py")):
        if "ui" in f.relative_to(PKG).parts:
            continue
        for n, line in enumerate(f.read_text(encoding="utf-8").splitlines(), 1):
            if re.match(r"\s*(?:from|import)\s+(?:PySide6|shiboken6)\b", line):
                leaks.append(f"{f.relative_to(PKG.parent)}:{n}: {line.strip()}")
    assert not leaks, leaks
