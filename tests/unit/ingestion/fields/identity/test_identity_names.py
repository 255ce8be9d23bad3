"""Names with degrees or credentials after them: the credential is dropped, the name kept."""

from __future__ import annotations

from cvrag_desktop.ingestion.fields.identity.names import find_name, strip_post_nominals
from cvrag_desktop.ingestion.read.extract import extract_document
from tests.support.minipdf import lines_doc, write_pdf

_doc = lines_doc


def test_post_nominal_without_dots_is_stripped():
    for line, name in [("Maren Tolliver MSc", "Maren Tolliver"), ("Odile Brack, PhD", "Odile Brack"),
                       ("Ravi Hollis MBA", "Ravi Hollis"), ("Tamsin Ocker RN", "Tamsin Ocker"),
                       ("Piet Laurel MBA, PMP", "Piet Laurel")]:
        doc = _doc([(line, 20), ("Project Manager", 12), ("Email\tmail@example.org", 9)])
        hit = find_name(doc)
        assert hit is not None and hit.value == name, line


def test_surnames_that_look_like_credentials_stay():
    assert strip_post_nominals("Tom Li Ma") == "Tom Li Ma"
    assert strip_post_nominals("LI MA") == "LI MA"
    assert strip_post_nominals("Anna Do") == "Anna Do"
    assert strip_post_nominals("JOHN SMITH MBA") == "JOHN SMITH"


def test_post_nominal_name_in_a_pdf(tmp_path):
    path = write_pdf(tmp_path / "pn.pdf", [[(60, 50, "Kerstin Aldane MSc", 22, True),
                                            (60, 80, "Process Engineer", 12, False),
                                            (60, 100, "kerstin@example.org", 10, False)]])
    hit = find_name(extract_document(path))
    assert hit is not None and hit.value == "Kerstin Aldane"
