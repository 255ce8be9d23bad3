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
        if "ui" in parts or parts[-1] == "app_entry":
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
    assert "cvrag_desktop.services" in mods and "cvrag_desktop.ingestion.extract" in mods
