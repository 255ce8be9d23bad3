"""An invented person whose CV (a PDF drawn with reportlab, or a Word file) prints a name, an e-mail and a
phone at known places, stored the way an import stores it: for the blind-screening GUI tests."""

from __future__ import annotations

NAME, EMAIL, PHONE = "Tobias Quillfeather", "tobias.quill@larkmail.example", "+44 7700 900123"
SECRETS = ("Tobias", "Quillfeather", "larkmail", "7700 900123")
CID = "tq1"


def _cv_pdf(path) -> None:
    from reportlab.pdfgen import canvas

    c = canvas.Canvas(str(path), pagesize=(595, 842))
    c.setFont("Helvetica-Bold", 20)
    c.drawString(60, 770, NAME)
    c.setFont("Helvetica", 12)
    c.drawString(60, 740, EMAIL)
    c.drawString(60, 720, PHONE)
    c.drawString(60, 660, "Skills: Python, Kafka, PostgreSQL")
    c.drawString(60, 640, "2019 - 2024 Backend Engineer, Invented Widgets Ltd")
    c.save()


def _cv_docx(path) -> None:
    from docx import Document
    from docx.shared import Pt

    doc = Document()
    run = doc.add_paragraph().add_run(NAME)
    run.bold, run.font.size = True, Pt(20)
    for line in (EMAIL, PHONE, "Skills: Python, Kafka, PostgreSQL",
                 "2019 - 2024 Backend Engineer, Invented Widgets Ltd"):
        doc.add_paragraph(line)
    doc.save(str(path))


def store_person(services, kind: str = "pdf") -> str:
    """The invented person's CV (a PDF or a Word file) stored as an import stores it."""
    from cvrag_desktop.domain import Chunk
    from tests.support.people_docs import make_cv

    cv = make_cv(NAME, [EMAIL], [PHONE], [("Backend Engineer", "Invented Widgets Ltd", "2019-01", "2024-01")],
                 skills=("Python", "Kafka"))
    cat = services.catalog  # opened before the library holds a file
    lib = services.paths.data_dir / "library"
    lib.mkdir(parents=True, exist_ok=True)
    sha = "7" * 64
    stored = lib / f"{sha}.{kind}"
    (_cv_pdf if kind == "pdf" else _cv_docx)(stored)
    fid = cat.upsert_file(sha=sha, original_path=f"/cvs/tq.{kind}", file_name=f"tq.{kind}", size=1,
                          status="processing", stored_path=str(stored))
    cat.save_candidate(CID, sha, cv, [Chunk(chunk_id=f"{CID}-0", candidate_id=CID, section="skills", ordinal=0,
                                            text="Skills: Python, Kafka", header="")], fid)
    return str(stored)
