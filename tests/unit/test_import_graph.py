"""The house has a bottom and no circles: the import graph of ``cvrag_desktop`` read with ``ast``.

The rules, each a test that names what breaks it:

* **No circle at module level.** An edge is an import executed when the module is
  imported: a top-level statement, or one nested in a top-level ``if``/``try``/``with``
  or class body, but not inside a function and not under ``if TYPE_CHECKING:``. Imports
  inside functions do not count for this rule: they run at call time, after every module
  has loaded, and they are how an upper layer reaches a lower one on demand (e.g. the CLI
  importing a heavy service only for the command that needs it). The layering rules
  below catch the lazy imports that matter.
* **No circle between packages at module level**: the same edges, with each module
  replaced by its top-level package (``catalog``, ``assistant``, …; a top-level module
  stands for itself). A module-level path catalog → assistant → catalog is a circle of
  layers even when no single module re-enters itself while loading.
* **catalog/ is the bottom of the core**: it imports nothing from the packages above it
  (assistant, index, ingestion, llm, factory, evaluation, ui) nor the faces (app,
  cli, app entry, self-test), not even lazily inside a function.
* **text/ is below catalog**: the text and name normalisation room imports no other
  ``cvrag_desktop`` package at all, not even lazily.
* **No circle even counting imports inside functions**: a function-level import is
  allowed only to defer a heavy third-party library, and the few that do are listed in
  :data:`DEFERS_HEAVY` (each checked: the module it imports really loads that library).
  Every other function-level import is an edge like a top-level one, so a circle that
  only closes at call time fails too.
* **The project is imported at module level**: anywhere in the package, the only
  function-level imports of project modules are those of :data:`DEFERS_HEAVY`.
* **No SQL against a catalog table outside catalog/**.

An edge goes to the module named (``from pkg import name`` goes to ``pkg.name`` when that
is a module, else to ``pkg``). Implicit imports of parent packages are not edges: every
``__init__`` of this project is a docstring and re-exports of its own submodules.
"""

from __future__ import annotations

import ast
import functools
import itertools
import re
import sys
from pathlib import Path

import cvrag_desktop

PKG = Path(cvrag_desktop.__file__).parent
ROOT = PKG.name
# Function-level imports of project modules whose only purpose is to defer a heavy third-party
# library (the imported module loads it at import time, directly or through its own imports):
# (importer, imported) -> the library deferred.
# Every import made inside a function, and the heavy library it keeps out of the importer's start-up
# (the CLI's metadata commands never load LangGraph, the Edge engine or the embedding models; `import
# cvrag_desktop.assistant` stays light; the factory's reportlab/Faker load only when CVs are generated).
DEFERS_HEAVY: dict[tuple[str, str], str] = {
    (f"{ROOT}.app.assembly", f"{ROOT}.assistant.service"): "langgraph",
    (f"{ROOT}.app.assembly", f"{ROOT}.index.service"): "qdrant_edge",
    (f"{ROOT}.app.compliance", f"{ROOT}.assistant.memory"): "langgraph",
    (f"{ROOT}.app.compliance", f"{ROOT}.assistant.thread_export"): "langgraph",
    (f"{ROOT}.app.forgetting", f"{ROOT}.assistant.memory"): "langgraph",
    (f"{ROOT}.app.jobs", f"{ROOT}.assistant.jobmatch.rank_explain"): "rapidfuzz",
    (f"{ROOT}.app.library", f"{ROOT}.factory.pipeline"): "reportlab",
    (f"{ROOT}.app.library", f"{ROOT}.factory.render"): "reportlab",
    (f"{ROOT}.app.search", f"{ROOT}.assistant.jobmatch.rank_explain"): "rapidfuzz",
    (f"{ROOT}.app_entry", f"{ROOT}.cli.entry"): "pydantic",
    (f"{ROOT}.app_entry", f"{ROOT}.selftest"): "yaml",
    (f"{ROOT}.app_entry", f"{ROOT}.ui.shell.application"): "PySide6",
    (f"{ROOT}.cli.compliance", f"{ROOT}.app.rules"): "rapidfuzz",
    (f"{ROOT}.cli.library", f"{ROOT}.app.rules"): "rapidfuzz",
    (f"{ROOT}.cli.people", f"{ROOT}.app.rules"): "rapidfuzz",
    (f"{ROOT}.diagnostics", f"{ROOT}.index.embeddings"): "numpy",
    (f"{ROOT}.evaluation.fold_training", f"{ROOT}.factory.pipeline"): "reportlab",
    (f"{ROOT}.index.service", f"{ROOT}.index.qdrant_store"): "qdrant_client",
    (f"{ROOT}.selftest", f"{ROOT}.index.embeddings"): "numpy",
    (f"{ROOT}.ui.dialogs.selftest_window", f"{ROOT}.ui.shell.application"): "PySide6",
    (f"{ROOT}.ui.dialogs.selftest_window", f"{ROOT}.ui.shell.main_window"): "PySide6",
    (f"{ROOT}.ui.screenshots", f"{ROOT}.ui.shell.main_window"): "rapidfuzz",
    (f"{ROOT}.ui.shell.application", f"{ROOT}.ui.shell.main_window"): "rapidfuzz",
    (f"{ROOT}.ui.shell.startup_probe", f"{ROOT}.ui.shell.application"): "PySide6",
    (f"{ROOT}.ui.shell.startup_probe", f"{ROOT}.ui.shell.main_window"): "PySide6",
}
# Deferrals of the project's own code where no heavy library is involved but a command would
# otherwise import a large part of the package it never runs (``cvrag ask`` and ``cvrag search``
# do not load the import pipeline, the generator, the diagnostics or the evaluation stack; issue
# 34's start-up comparison, benchmarks/cli_start.py). Each must spare at least MIN_DEFERRED modules.
DEFERS_CODE: dict[tuple[str, str], str] = {
    (f"{ROOT}.app.assembly", f"{ROOT}.app.library"): "the import pipeline, the CV generator",
    (f"{ROOT}.app.assembly", f"{ROOT}.app.people"): "the people grouping and facet rules",
    (f"{ROOT}.app.assembly", f"{ROOT}.app.health"): "the doctor, diagnostics and previews",
    (f"{ROOT}.cli.evaluation", f"{ROOT}.app.quality"): "the evaluation stack",
}
MIN_DEFERRED = 10
ABOVE_CATALOG = ("assistant", "index", "ingestion", "llm", "factory", "evaluation", "ui",
                 "app", "cli", "app_entry", "selftest")


def module_files() -> dict[str, Path]:
    """Every module of the package by dotted name (a package is named by its ``__init__``)."""
    pkg = PKG
    out = {}
    for f in sorted(pkg.rglob("*.py")):
        parts = f.relative_to(pkg.parent).with_suffix("").parts
        out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = f
    return out


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(body: list[ast.stmt], lazy: bool, in_function: bool = False):
    """Yield (node, in_function) for every import statement reachable from ``body``."""
    for node in body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node, in_function
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if lazy:
                yield from _imports(node.body, lazy, True)
        elif isinstance(node, ast.If) and _is_type_checking(node.test):
            continue
        else:
            for name in ("body", "orelse", "finalbody", "handlers"):
                inner = getattr(node, name, None)
                if isinstance(inner, list):
                    yield from _imports([n for n in inner if isinstance(n, ast.AST)], lazy, in_function)
            if isinstance(node, ast.ExceptHandler):
                continue
            if isinstance(node, ast.Match):
                for case in node.cases:
                    yield from _imports(case.body, lazy, in_function)


def _targets(node: ast.Import | ast.ImportFrom, module: str, is_package: bool, known: set[str]) -> list[str]:
    """The project modules one import statement names."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names if a.name.split(".")[0] == ROOT and a.name in known]
    if node.level:
        base = module.split(".") if is_package else module.split(".")[:-1]
        base = base[: len(base) - (node.level - 1)]
        source = ".".join([*base, node.module] if node.module else base)
    else:
        source = node.module or ""
    if source.split(".")[0] != ROOT:
        return []
    out = []
    for a in node.names:
        sub = f"{source}.{a.name}"
        out.append(sub if sub in known else source)
    return [t for t in out if t in known]


def import_graph(lazy: bool) -> dict[str, dict[str, int]]:
    """module -> {imported project module: line}; ``lazy`` adds imports inside functions."""
    files = module_files()
    known = set(files)
    graph: dict[str, dict[str, int]] = {}
    for mod, path in files.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        edges: dict[str, int] = {}
        for node, _ in _imports(tree.body, lazy):
            for t in _targets(node, mod, path.name == "__init__.py", known):
                if t != mod:
                    edges.setdefault(t, node.lineno)
        graph[mod] = edges
    return graph


def find_circles(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan), each as one cycle path."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    comps: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, {}):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                comps.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return [_cycle_in(graph, set(c)) for c in comps]


def _cycle_in(graph: dict[str, dict[str, int]], comp: set[str]) -> list[str]:
    """One concrete cycle through the first module of a strongly connected component (BFS back to it)."""
    start = min(comp)
    prev: dict[str, str] = {}
    frontier = [start]
    while frontier:
        nxt = []
        for v in frontier:
            for w in sorted(graph[v]):
                if w not in comp:
                    continue
                if w == start:
                    path = [v]
                    while path[-1] != start:
                        path.append(prev[path[-1]])
                    return [*reversed(path), start]
                if w not in prev:
                    prev[w] = v
                    nxt.append(w)
        frontier = nxt
    return sorted(comp)


def _describe(graph: dict[str, dict[str, int]], cycle: list[str]) -> str:
    return " -> ".join(f"{a} (line {graph[a][b]})" for a, b in itertools.pairwise(cycle)) + f" -> {cycle[-1]}"


def _package(mod: str) -> str:
    parts = mod.split(".")
    return parts[1] if len(parts) > 1 else ""


def test_no_import_circle_at_module_level():
    """Importing any module never re-enters a module that is still loading."""
    graph = import_graph(lazy=False)
    circles = find_circles(graph)
    assert not circles, "import circles:\n" + "\n".join(_describe(graph, c) for c in circles)


def package_graph(graph: dict[str, dict[str, int]]) -> tuple[dict[str, dict[str, int]], dict[tuple[str, str], str]]:
    """The graph between top-level packages, and for each package edge one module edge that makes it."""
    pg: dict[str, dict[str, int]] = {}
    why: dict[tuple[str, str], str] = {}
    for m, edges in graph.items():
        a = _package(m) or m
        pg.setdefault(a, {})
        for t, line in edges.items():
            b = _package(t) or t
            pg.setdefault(b, {})
            if a != b and b not in pg[a]:
                pg[a][b] = line
                why[(a, b)] = f"{m} line {line} imports {t}"
    return pg, why


def test_no_import_circle_between_packages_at_module_level():
    """The layers form a ladder: no package reaches back into one that imports it."""
    pg, why = package_graph(import_graph(lazy=False))
    circles = find_circles(pg)
    assert not circles, "package circles:\n" + "\n".join(
        " -> ".join(c) + ": " + "; ".join(why[(a, b)] for a, b in itertools.pairwise(c)) for c in circles)


def test_catalog_imports_nothing_above_it_even_lazily():
    """catalog/ is the bottom of the core: text/, domain, errors, config and itself only."""
    graph = import_graph(lazy=True)
    leaks = [f"{m} line {line} imports {t}" for m, edges in graph.items() if _package(m) == "catalog"
             for t, line in edges.items() if _package(t) in ABOVE_CATALOG]
    assert not leaks, "\n".join(leaks)


def test_text_room_imports_no_other_project_package():
    """text/ (keys, folding, company cores) is below everything: it imports only itself."""
    graph = import_graph(lazy=True)
    mods = [m for m in graph if _package(m) == "text"]
    assert f"{ROOT}.text.keys" in mods, "the text room is missing"
    leaks = [f"{m} line {line} imports {t}" for m in mods for t, line in graph[m].items() if _package(t) != "text"]
    assert not leaks, "\n".join(leaks)


def test_the_graph_reader_sees_a_circle_and_a_lazy_import(tmp_path, monkeypatch):
    """The reader itself: a two-module circle is found and named; a lazy import counts only when asked."""
    pkg = tmp_path / ROOT
    (pkg / "catalog").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "catalog" / "__init__.py").write_text("")
    (pkg / "catalog" / "a.py").write_text("from . import b\n")
    (pkg / "catalog" / "b.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from cvrag_desktop import c\n"
        "from cvrag_desktop.catalog.a import x\n")
    (pkg / "c.py").write_text("def f():\n    from cvrag_desktop.catalog import a\n")
    monkeypatch.setattr(sys.modules[__name__], "PKG", pkg)
    eager = import_graph(lazy=False)
    assert find_circles(eager) == [[f"{ROOT}.catalog.a", f"{ROOT}.catalog.b", f"{ROOT}.catalog.a"]]
    assert f"{ROOT}.c" not in eager[f"{ROOT}.catalog.b"]  # TYPE_CHECKING block is not an edge
    assert eager[f"{ROOT}.c"] == {}
    assert import_graph(lazy=True)[f"{ROOT}.c"] == {f"{ROOT}.catalog.a": 2}


def _third_party_at_module_level() -> dict[str, set[str]]:
    """module -> the top-level names of the non-project libraries it imports at module level."""
    out: dict[str, set[str]] = {}
    for mod, path in module_files().items():
        names: set[str] = set()
        for node, _ in _imports(ast.parse(path.read_text(encoding="utf-8")).body, lazy=False):
            if isinstance(node, ast.Import):
                names |= {a.name.split(".")[0] for a in node.names}
            elif not node.level and node.module:
                names.add(node.module.split(".")[0])
        out[mod] = names - {ROOT}
    return out


@functools.cache
def _graphs(pkg: Path) -> tuple[dict[str, dict[str, int]], dict[str, set[str]]]:
    """The module-level graph and each module's third-party imports, read once per package folder."""
    return import_graph(lazy=False), _third_party_at_module_level()


def project_closure(module: str) -> set[str]:
    """The project modules importing ``module`` loads (module-level imports and parent packages)."""
    eager, _ = _graphs(PKG)
    seen, todo = set(), [module]
    while todo:
        m = todo.pop()
        if m in seen:
            continue
        seen.add(m)
        parts = m.split(".")
        todo += list(eager.get(m, {})) + [".".join(parts[:i]) for i in range(2, len(parts))]
    return seen


def loads_at_import(module: str, library: str) -> bool:
    """Whether importing ``module`` loads ``library`` (directly or through module-level project imports).

    Python runs every parent package's ``__init__`` before a module, so those count here too.
    """
    eager, third = _graphs(PKG)
    seen, todo = set(), [module]
    while todo:
        m = todo.pop()
        if m in seen:
            continue
        seen.add(m)
        if library in third.get(m, set()):
            return True
        parts = m.split(".")
        todo += list(eager.get(m, {})) + [".".join(parts[:i]) for i in range(2, len(parts))]
    return False


def function_imports(packages: tuple[str, ...] | None = None) -> list[tuple[str, str, int]]:
    """(importer, imported project module, line) for every import inside a function."""
    files = module_files()
    known = set(files)
    out = []
    for mod, path in files.items():
        if packages is not None and _package(mod) not in packages:
            continue
        for node, in_function in _imports(ast.parse(path.read_text(encoding="utf-8")).body, lazy=True):
            if in_function:
                out += [(mod, t, node.lineno) for t in _targets(node, mod, path.name == "__init__.py", known) if t != mod]
    return out


def test_no_import_circle_counting_imports_inside_functions():
    """A circle that closes only when a function runs is still a circle (heavy-library deferrals aside)."""
    graph = import_graph(lazy=True)
    for a, b in DEFERS_HEAVY:
        graph.get(a, {}).pop(b, None)
    eager = import_graph(lazy=False)
    circles = find_circles(graph)
    assert not circles, "import circles (counting imports inside functions):\n" + "\n".join(
        " -> ".join(f"{a} (line {graph[a][b]}{'' if b in eager[a] else ', in a function'})"
                    for a, b in itertools.pairwise(c)) + f" -> {c[-1]}" for c in circles)


def test_each_deferred_import_defers_a_heavy_library():
    """Every allow-listed function-level import is one, the module it imports loads the library named,
    and the importer does not load that library anyway (else the deferral defers nothing)."""
    lazy = {(a, b) for a, b, _ in function_imports()}
    wrong = []
    for (a, b), lib in DEFERS_HEAVY.items():
        if (a, b) not in lazy:
            wrong.append(f"{a} -> {b}: no such function-level import")
        elif not loads_at_import(b, lib):
            wrong.append(f"{a} -> {b}: does not load {lib}")
        elif loads_at_import(a, lib):
            wrong.append(f"{a} -> {b}: {a} loads {lib} at import anyway")
    assert not wrong, "\n".join(wrong)


def test_each_deferral_of_project_code_spares_a_large_part_of_the_package():
    """A :data:`DEFERS_CODE` import is one, and it keeps at least MIN_DEFERRED modules out of the importer."""
    lazy = {(a, b) for a, b, _ in function_imports()}
    wrong = [f"{a} -> {b}: " + ("no such function-level import" if (a, b) not in lazy else
                                f"spares only {len(project_closure(b) - project_closure(a))} modules")
             for a, b in DEFERS_CODE
             if (a, b) not in lazy or len(project_closure(b) - project_closure(a)) < MIN_DEFERRED]
    assert not wrong, "\n".join(wrong)


def test_function_level_imports_of_project_modules_only_defer_a_heavy_library():
    """Anywhere in the package, an import inside a function is one of :data:`DEFERS_HEAVY`."""
    hidden = [f"{a} line {line} imports {b}" for a, b, line in function_imports()
              if (a, b) not in DEFERS_HEAVY and (a, b) not in DEFERS_CODE]
    assert not hidden, "move these imports to the top of the module (or the shared piece down):\n" + "\n".join(hidden)


def test_the_graph_reader_sees_a_circle_through_a_function_level_import(tmp_path, monkeypatch):
    """A circle closed only by an import inside a function is found when function imports count."""
    pkg = tmp_path / ROOT
    (pkg / "assistant").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "assistant" / "__init__.py").write_text("")
    (pkg / "assistant" / "a.py").write_text("from cvrag_desktop.assistant import b\n")
    (pkg / "assistant" / "b.py").write_text("def f():\n    from cvrag_desktop.assistant.a import x\n")
    monkeypatch.setattr(sys.modules[__name__], "PKG", pkg)
    assert find_circles(import_graph(lazy=False)) == []
    assert find_circles(import_graph(lazy=True)) == [[f"{ROOT}.assistant.a", f"{ROOT}.assistant.b",
                                                      f"{ROOT}.assistant.a"]]
    assert function_imports() == [(f"{ROOT}.assistant.b", f"{ROOT}.assistant.a", 2)]


CATALOG_TABLE = re.compile(
    r"\b(?:FROM|INTO|UPDATE|JOIN|TABLE)\s+(?:audit_log|audit_meta|audit_subjects|candidates|chunks|files|"
    r"identity_reveals|job_match_evidence|job_match_rows|job_matches|meta|pending_forget|person_links|provenance|"
    r"retention_consent|saved_searches|screening|shortlist_items|shortlists)\b")
OWN_STORES = ("index/edge/files.py",)  # the index's own reuse cache has a `chunks`/`meta` table of its own


def catalog_sql(text: str) -> list[str]:
    """Lines of source that run SQL against a catalog table."""
    return [line.strip() for line in text.splitlines() if CATALOG_TABLE.search(line)]


def test_no_sql_against_catalog_tables_outside_catalog():
    """Every statement against the catalog's tables is in ``catalog/`` (the catalog may become PostgreSQL)."""
    leaks = []
    for f in sorted(PKG.rglob("*.py")):
        rel = f.relative_to(PKG).as_posix()
        if rel.startswith("catalog/") or rel in OWN_STORES:
            continue
        leaks += [f"{rel}: {line}" for line in catalog_sql(f.read_text(encoding="utf-8"))]
    assert not leaks, "\n".join(leaks)
    assert catalog_sql('rows = cat.query("SELECT chunk_id FROM chunks WHERE x = ?")\nx = "from the files"') == [
        'rows = cat.query("SELECT chunk_id FROM chunks WHERE x = ?")']


# The floors of docs/architecture.md: a module imports only its own floor or the floors below it.
FLOORS = {
    "cvrag_desktop": 0, "text": 0, "errors": 0, "domain": 0, "config": 0, "single_instance": 0,
    "catalog": 1,
    "llm": 2, "ingestion": 2,
    "index": 3,
    "assistant": 4, "factory": 4, "evaluation": 4, "diagnostics": 4,
    "app": 5,
    "ui": 6, "cli": 6,
    "selftest": 7, "app_entry": 7,
}


def _room(mod: str) -> str:
    """The top-level package (or module) a module belongs to, as the floor table names it."""
    return _package(mod) or mod.split(".")[-1]


def floor_violations(graph: dict[str, dict[str, int]]) -> list[str]:
    """Imports that climb the floors (counting imports inside functions)."""
    return [f"{a} (floor {FLOORS[_room(a)]}) line {line} imports {b} (floor {FLOORS[_room(b)]})"
            for a, edges in graph.items() for b, line in edges.items()
            if _room(a) != _room(b) and FLOORS[_room(b)] > FLOORS[_room(a)]]


def test_every_import_goes_down_the_floors_of_the_map():
    """docs/architecture.md's floor table holds: nothing imports a floor above its own, not even lazily."""
    graph = import_graph(lazy=True)
    unplaced = sorted({_room(m) for m in graph} - set(FLOORS))
    assert not unplaced, f"put these on a floor here and in docs/architecture.md: {unplaced}"
    assert not floor_violations(graph), "\n".join(floor_violations(graph))
    doc = (PKG.parent / "docs" / "architecture.md").read_text(encoding="utf-8")
    assert all(f"`{name}" in doc for name in FLOORS if name != ROOT), "a floor of this table is missing from the map"


def test_the_floor_check_sees_a_climbing_import():
    graph = {f"{ROOT}.catalog.db": {f"{ROOT}.assistant.nodes": 3}, f"{ROOT}.assistant.nodes": {f"{ROOT}.catalog.db": 1}}
    assert floor_violations(graph) == [f"{ROOT}.catalog.db (floor 1) line 3 imports {ROOT}.assistant.nodes (floor 4)"]
