"""The vocabulary room is the one home of folding, stemming and comparison keys.

A ``fold``, a stem or a ``*_key`` function defined elsewhere in the package is a second
definition waiting to drift from the first (there were three folds, two stems and nine
keys before they moved here). Keys that are not text comparison keys are listed.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import cvrag_desktop

PKG = Path(cvrag_desktop.__file__).parent
TEXT_NAME = re.compile(r"^_?(?:\w+_)?(?:fold|stem)(?:_\w+)?$|^_?\w+_key$")
NOT_TEXT_KEYS = {
    "sort_key",  # ui: a table column's sort value
    "_int_key",  # ingestion.read.pdf_guard: an integer entry of a PDF object
    "_api_key",  # llm.config: a model route's API key
    "rng_key",  # factory: the seed of a synthetic CV
}


def test_no_fold_stem_or_key_is_defined_outside_the_room():
    found = []
    for path in sorted(PKG.rglob("*.py")):
        if path.relative_to(PKG).parts[0] == "text":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and TEXT_NAME.match(node.name) \
                    and node.name not in NOT_TEXT_KEYS:
                found.append(f"{path.relative_to(PKG)}:{node.lineno} {node.name}")
    assert not found, "define these in cvrag_desktop/text/ (or list a non-text key here):\n" + "\n".join(found)
