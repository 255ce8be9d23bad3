"""Layering: the core never imports Qt, and the GUI and the CLI are two faces over the application layer (app/)."""

from __future__ import annotations

import re
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
        if "ui" in parts or parts[-1] == "__main__":  # a __main__ runs its program when imported
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
    assert "cvrag_desktop.app.assembly" in mods and "cvrag_desktop.ingestion.read.extract" in mods


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


# ---- the faces import only the application layer -------------------------------------------------
# ``ui/`` and the CLI (``cli*.py`` or a ``cli/`` package) may import from the core only
# ``cvrag_desktop.app`` (and its submodules), ``domain`` and ``errors`` — plus their own
# modules. Every import statement counts: at module level, inside functions, under
# ``if TYPE_CHECKING:``. ``importlib.import_module("cvrag_desktop.x")`` with a literal name counts too.
ALLOWED_FROM_CORE = ("app", "domain", "errors")


def _is_face(rel_parts: tuple[str, ...]) -> str | None:
    """``"ui"`` or ``"cli"`` when a module (path parts below the package) belongs to a face, else None."""
    if rel_parts[0] == "ui":
        return "ui"
    if rel_parts[0] == "cli" or rel_parts[0].startswith("cli_") or rel_parts[0] == "cli.py":
        return "cli"
    return None


def _imported_names(tree) -> list[tuple[int, str]]:
    """(line, dotted module) for every import in ``tree``, anywhere (functions, TYPE_CHECKING included)."""
    import ast

    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            out += [(node.lineno, f"{node.module}.{a.name}" if node.module == PKG.name else node.module)
                    for a in node.names]
        elif (isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) ==
              "import_module" and node.args and isinstance(node.args[0], ast.Constant)
              and isinstance(node.args[0].value, str)):
            out.append((node.lineno, node.args[0].value))
    return out


def face_violations(edges: list[tuple[str, str, int]]) -> list[str]:
    """The edges ``(face module, imported module, line)`` that reach the core other than app, domain, errors."""
    bad = []
    root = PKG.name
    for mod, target, line in edges:
        parts = target.split(".")
        if parts[0] != root:
            continue  # the standard library or a third-party package
        face = _is_face(tuple(mod.split(".")[1:]) or ("",))
        head = parts[1] if len(parts) > 1 else ""
        if head in ALLOWED_FROM_CORE or head == face or (face == "cli" and _is_face((head,)) == "cli"):
            continue
        bad.append(f"{mod} line {line} imports {target}")
    return bad


def face_edges() -> list[tuple[str, str, int]]:
    """Every project import of every ``ui/`` and CLI module, as (module, imported, line)."""
    import ast

    edges = []
    for f in sorted(PKG.rglob("*.py")):
        rel = f.relative_to(PKG).parts
        if _is_face(rel) is None:
            continue
        mod = ".".join((PKG.name, *f.relative_to(PKG).with_suffix("").parts))
        for line, target in _imported_names(ast.parse(f.read_text(encoding="utf-8"))):
            edges.append((mod, target, line))
    return edges


def test_ui_and_cli_import_only_app_domain_and_errors_from_the_core():
    """The GUI and the CLI are faces over ``cvrag_desktop.app``: no catalog, index, assistant, config... import."""
    edges = face_edges()
    assert any(m.startswith(f"{PKG.name}.ui.") for m, _, _ in edges), "no ui module was read"
    assert any(m.startswith(f"{PKG.name}.cli") for m, _, _ in edges), "no CLI module was read"
    bad = face_violations(edges)
    assert not bad, "\n".join(bad)


def test_the_face_rule_fails_on_a_violation():
    """The checker itself: synthetic edges that break the rule are reported, allowed ones are not."""
    root = PKG.name
    edges = [
        (f"{root}.ui.panes.chat_pane", f"{root}.assistant.service", 3),  # a pane reaching the assistant
        (f"{root}.ui.status", f"{root}.llm.health", 9),  # a lazy import inside a function counts the same
        (f"{root}.cli", f"{root}.catalog.screening", 12),
        (f"{root}.cli_search", f"{root}.index", 15),
        (f"{root}.cli.main", f"{root}.config", 2),
        (f"{root}.ui.about", root, 8),  # the package root is core too
        (f"{root}.ui.main_window", f"{root}.app.assembly", 1),  # allowed
        (f"{root}.ui.main_window", f"{root}.errors", 1),
        (f"{root}.ui.main_window", f"{root}.domain", 1),
        (f"{root}.ui.main_window", f"{root}.ui.tasks", 1),
        (f"{root}.cli", f"{root}.cli_assistant", 1),
        (f"{root}.cli.main", f"{root}.cli.output", 1),
        (f"{root}.ui.tasks", "PySide6.QtCore", 1),
    ]
    assert face_violations(edges) == [
        f"{root}.ui.panes.chat_pane line 3 imports {root}.assistant.service",
        f"{root}.ui.status line 9 imports {root}.llm.health",
        f"{root}.cli line 12 imports {root}.catalog.screening",
        f"{root}.cli_search line 15 imports {root}.index",
        f"{root}.cli.main line 2 imports {root}.config",
        f"{root}.ui.about line 8 imports {root}",
    ]


def test_the_face_reader_sees_imports_inside_functions_and_type_checking(tmp_path):
    """``_imported_names`` reads every import form the rule must see."""
    import ast

    src = ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from cvrag_desktop.catalog.db import Catalog\n"
           "def f():\n    from cvrag_desktop.llm import health\n    import cvrag_desktop.index.service\n"
           "    import importlib\n    importlib.import_module('cvrag_desktop.config')\n"
           "from cvrag_desktop import services\n")
    names = [n for _, n in _imported_names(ast.parse(src))]
    for want in ("cvrag_desktop.catalog.db", "cvrag_desktop.llm", "cvrag_desktop.index.service",
                 "cvrag_desktop.config", "cvrag_desktop.services"):
        assert want in names, (want, names)


def test_no_circle_through_the_faces_or_the_app_layer_even_lazily():
    """ui/, the CLI, the self-test and app/ are in no import circle, counting imports inside functions
    (ui.core <-> ui.status and selftest <-> ui.selftest_window were two)."""
    from tests.unit.test_import_graph import find_circles, import_graph

    root = PKG.name
    watched = (f"{root}.ui", f"{root}.cli", f"{root}.selftest", f"{root}.app.", f"{root}.app_entry")
    circles = [c for c in find_circles(import_graph(lazy=True)) if any(m.startswith(watched) for m in c)]
    assert not circles, circles


STORE_ATTRIBUTES = re.compile(r"\b(?:services|svc|app)\.(?:catalog|index|assistant|directory|audit)\b(?!\()")


def store_reaches(text: str) -> list[str]:
    """Lines of a face's source that reach into the App's stores (``svc.catalog``...) instead of an operation."""
    return [line.strip() for line in text.splitlines() if STORE_ATTRIBUTES.search(line)]


def test_ui_and_cli_reach_the_stores_only_through_operations():
    """``ui/`` and the CLI never hold the catalog, the index or the assistant: ``app.people.…``, ``app.chat.…``."""
    bad = []
    for f in sorted(PKG.rglob("*.py")):
        if _is_face(f.relative_to(PKG).parts) is not None:
            bad += [f"{f.relative_to(PKG.parent)}: {line}" for line in store_reaches(f.read_text(encoding="utf-8"))]
    assert not bad, "\n".join(bad)
    assert store_reaches("a = core.assistant(svc)\nsvc.catalog.counts()\nx = services.index.search(q)") == [
        "svc.catalog.counts()", "x = services.index.search(q)"]
    assert store_reaches("svc.chat.ask(q)\nself.index(0, 0)\napp.people.list_people()") == []
