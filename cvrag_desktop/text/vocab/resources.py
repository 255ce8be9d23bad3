"""The bundled data files of ``resources/``: where they are and each YAML file parsed once.

The vocabularies (headings, skills, languages, degrees, places, question words) are data
files, so the bottom room reads them itself: it may import nothing else of the project,
and every layer above (configuration, ingestion, index, assistant) finds them here.
"""

from __future__ import annotations

import copy
import os
import sys
from functools import cache
from pathlib import Path

# the folder a wheel install puts the data files in (pyproject data-files: share/cvrag-desktop/resources)
_SHARE_NAME = "cvrag-desktop"


@cache
def resources_dir() -> Path:
    """The bundled data files (lexicons, aliases, profiles, tokenizer files)."""
    env = os.environ.get("CVRAG_RESOURCES")
    if env:
        return Path(env)
    beside = Path(__file__).resolve().parents[3] / "resources"  # source tree, or a frozen build's folder
    installed = Path(sys.prefix) / "share" / _SHARE_NAME / "resources"  # a wheel install (pyproject data-files)
    return installed if not beside.is_dir() and installed.is_dir() else beside


@cache
def _parsed_yaml(path: str, mtime_ns: int):
    import yaml  # deferred: only the commands that read vocabularies pay for it

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml: ~8x faster than the pure-Python parser
    return yaml.load(Path(path).read_text(encoding="utf-8"), Loader=loader)


def resource_yaml(name: str):
    """One data file of ``resources/`` parsed (a fresh copy the caller may change).

    Several modules read the same files (``question_words.yaml`` by five of them): each file
    is parsed once per process with libyaml when present, which keeps ``cvrag ask`` short.
    """
    path = resources_dir() / name
    return copy.deepcopy(_parsed_yaml(str(path), path.stat().st_mtime_ns))
