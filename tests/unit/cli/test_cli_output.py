"""Control characters, terminal escapes and line breaks in names and paths are printed inert."""

from __future__ import annotations

import json

from cvrag_desktop.app.output import SafeStream, safe
from cvrag_desktop.cli.entry import main
from tests.support.fault_cvs import write_cv


def test_safe_escapes_controls_and_newlines():
    assert safe("a\x1b[2Jb\nc\rd\x07\x9b") == "a\\x1b[2Jb\\nc\\rd\\x07\\x9b"
    assert safe("Zoë Müller") == "Zoë Müller"
    assert safe("x\u202ey") == "x\\u202ey"  # right-to-left override


def test_safe_stream_keeps_own_newlines(capsys):
    import sys

    SafeStream(sys.stdout).write("one\x1b]0;title\x07\ttwo\n")
    assert capsys.readouterr().out == "one\\x1b]0;title\\x07\ttwo\n"


def test_cli_prints_hostile_file_names_inert(tmp_path, capsys):
    folder = tmp_path / "in"
    write_cv(folder, "ok")
    (folder / "x\x1b[31mred\nforged line.pdf").write_bytes(b"%PDF-1.4\n broken " * 10)
    assert main(["ingest", str(folder), "--no-llm"]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out
    assert "x\\x1b[31mred\\nforged line.pdf" in out
    assert main(["forget", "--failed"]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\\x1b[31mred\\nforged" in out
    assert main(["candidates", "list", "--json"]) == 0
    assert len(json.loads(capsys.readouterr().out)) == 1
