"""Library chatter stays out of stderr and out of the reasons shown for refused files (issue 22, 9h)."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

from lxml import etree

from cvrag_desktop.ingestion.read.reasons import plain_cause, with_cause
from tests.support.fault_cvs import write_cv

ROOT = Path(__file__).resolve().parents[4]
WORD_MAIN = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
PKG = "http://schemas.openxmlformats.org/package/2006"


def _xml_error() -> Exception:
    try:
        etree.fromstring(b"<a>&nope;</a>")
    except etree.XMLSyntaxError as exc:
        return exc
    raise AssertionError("lxml accepted a malformed document")


def test_plain_cause_names_the_class_of_failure_without_positions_or_paths():
    assert plain_cause(_xml_error()) == "its XML is malformed"
    assert plain_cause(KeyError("There is no item named 'word/x.xml' in the archive")) == "a part it refers to is missing"
    assert plain_cause(RuntimeError("Failed to open file '/srv/home/data/library/cv.pdf' as type pdf.")) == ""
    odd = plain_cause(ValueError("bad thing in /var/lib/secret/place.bin, line 3, column 9"))
    assert "/var" not in odd and "column" not in odd and odd.startswith("bad thing")
    assert with_cause("x.pdf is damaged.", RuntimeError("Failed to open file '/a/b'")) == "x.pdf is damaged."
    assert with_cause("x.docx cannot be read.", _xml_error()) == "x.docx cannot be read (its XML is malformed)."


def _broken_docx(path: Path) -> Path:
    body = f'<w:document xmlns:w="{WORD_MAIN}"><w:body><w:p><w:r><w:t>A &undefined; B</w:t></w:r></w:p></w:document>'
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("[Content_Types].xml", f'<Types xmlns="{PKG}/content-types"><Default Extension="xml" '
                   'ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/'
                   'vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>')
        z.writestr("_rels/.rels", f'<Relationships xmlns="{PKG}/relationships"><Relationship Id="rId1" Type="http://'
                   'schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" '
                   'Target="word/document.xml"/></Relationships>')
        z.writestr("word/document.xml", body)
    path.write_bytes(buf.getvalue())
    return path


def test_ingest_of_damaged_files_prints_nothing_but_its_own_report(tmp_path):
    """A cut PDF, random bytes after a PDF header and malformed Word XML: stderr stays empty (pypdf's
    "EOF marker not found" used to be printed by the fallback reader), each reason is said once, names
    no path inside the data home and no parser position, and a good CV beside them imports."""
    folder = tmp_path / "in"
    good = write_cv(folder, "good")
    data = good.read_bytes()
    (folder / "cut.pdf").write_bytes(data[: data.index(b"stream") + 40])  # cut inside the first stream
    (folder / "noise.pdf").write_bytes(b"%PDF-1.4\n" + bytes((i * 97 + 13) % 256 for i in range(6000)))
    _broken_docx(folder / "malformed.docx")
    home = tmp_path / "home"
    env = {**os.environ, "CVRAG_HOME": str(home), "CVRAG_NO_LLM": "1"}
    run = subprocess.run([sys.executable, "-m", "cvrag_desktop.cli", "ingest", str(folder), "--no-llm", "--json"],
                         capture_output=True, text=True, env=env, cwd=str(ROOT), timeout=600)
    assert run.returncode == 0, run.stderr
    assert run.stderr == "", run.stderr
    report = json.loads(run.stdout)
    assert report["ingested"] == 1
    reasons = {Path(f["path"]).name: f["error"] for f in report["failed"]}
    assert set(reasons) == {"cut.pdf", "noise.pdf", "malformed.docx"}, reasons
    for name, reason in reasons.items():
        assert str(home) not in reason and "column" not in reason and "<string>" not in reason, reason
        assert reason.count(name) == 1 and reason.count("(") <= 1, reason
    assert "XML is malformed" in reasons["malformed.docx"]
    assert "scan" not in reasons["cut.pdf"]  # nothing drawn to OCR: a damaged file, not a scan
