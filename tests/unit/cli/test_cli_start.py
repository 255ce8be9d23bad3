"""The ``cvrag`` entry point starts light: parsing a command loads no heavy library.

Each of litellm, LangGraph, fastembed/ONNX Runtime and Qdrant Edge costs 0.1–0.5 s to import;
a command imports them only when it reaches the code that needs them (see
``benchmarks/cli_start.py``). Checked in a fresh interpreter, where nothing is imported yet.
"""

from __future__ import annotations

import json
import subprocess
import sys

HEAVY = ("litellm", "langgraph", "langchain_core", "fastembed", "onnxruntime", "qdrant_edge", "qdrant_client",
         "pymupdf", "fitz", "PySide6", "numpy")

# a module set to None in sys.modules is one the package blocks on purpose (cvrag_desktop/__init__.py)
_PROBE = """
import json, sys
from cvrag_desktop.cli import entry as cli
parser = cli.build_parser()
for argv in (["search", "python developer", "--skill", "Go"], ["ask", "how many speak German?", "--no-llm"],
             ["candidates", "list"], ["ingest", "x", "--no-llm"], ["match", "job.txt"]):
    try:
        parser.parse_args(argv)
    except SystemExit:
        pass  # a subcommand's own required arguments: parsing alone is what is measured
heavy = set(sys.argv[1:])
print(json.dumps(sorted(m for m, mod in sys.modules.items() if mod is not None and m.split(".")[0] in heavy)))
"""


def test_importing_the_cli_and_parsing_loads_no_heavy_module():
    out = subprocess.run([sys.executable, "-c", _PROBE, *HEAVY], capture_output=True, text=True, check=True,
                         timeout=120).stdout
    assert json.loads(out.strip().splitlines()[-1]) == []


def test_the_parser_still_knows_every_search_strategy():
    from cvrag_desktop.cli.entry import build_parser
    from cvrag_desktop.index.service import STRATEGIES

    args = build_parser().parse_args(["search", "x", "--strategy", STRATEGIES[-1]])
    assert args.strategy == STRATEGIES[-1]
    assert set(STRATEGIES) == {"hybrid", "metadata", "filtered"}
