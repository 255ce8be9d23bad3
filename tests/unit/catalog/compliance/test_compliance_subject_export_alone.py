"""A subject-access export holds the person alone: every record about them, nothing that identifies anyone else.

A library of invented people shares everything a person's data could leak through: chat
answers that cite the subject and others, a saved job match ranking them together, a
shortlist holding them all, notes, a tag, a reveal reason and a shortlist name mentioning
others, audit entries naming several people. The whole zip (every file decompressed, the
original PDF's text extracted) is searched for every other person's name, e-mail, phone
(as written and as bare digits), ids (candidate and person id, file sha, audit reference)
and quoted CV lines: no hit. And the subject's own data is there.
"""

from __future__ import annotations

import json
import re
import zipfile

import pytest

from cvrag_desktop.app.assembly import App
from cvrag_desktop.catalog.privacy.blind import pseudonym
from cvrag_desktop.domain import Chunk
from tests.support.people_docs import make_cv, one_page_pdf

# (candidate id, name, e-mail, phone, role, company, skills, distinctive CV lines)
PEOPLE = {
    "subject": ("5ab0c0de00000001", "Zelda Quorn", "zelda.quorn@quornmail.test", "+44 7700 900111",
                "Data Engineer", "Acme Widgets", ("Python", "Spark"),
                ["Built the Spark ingestion lane for Acme Widgets telemetry",
                 "Python and Spark pipelines processing sensor batches nightly",
                 "Forklift licence number FLQ-551-ZQ held since 2015"]),
    "other1": ("7e11a0000000aa02", "Yusuf Brannigan", "yusuf.b@brannmail.test", "+44 7700 900222",
               "Backend Developer", "Globex Freight", ("Python", "Go"),
               ["Python services for the Globex Freight booking desk",
                "Go rewrite of the customs manifest checker in 2021",
                "Driving licence number BRANN-880412-YB9 clean record"]),
    "other2": ("7e11a0000000bb03", "Xenia Morrow", "xenia.morrow@morrowpost.test", "+44 7700 900333",
               "ML Engineer", "Initech Labs", ("Python", "PyTorch"),
               ["Python model training for Initech Labs fraud scoring",
                "PyTorch distillation of the Initech ranking model",
                "Member number IEEE-96650321 since the Lisbon chapter"]),
    "other3": ("7e11a0000000cc04", "Wendell Pike", "wendell.pike@pikeworks.test", "+44 7700 900444",
               "Analyst", "Umbrella Logistics", ("SQL", "Excel"),
               ["SQL reporting for the Umbrella Logistics night depot",
                "Excel models forecasting the Umbrella pallet returns"]),
}
SUBJECT = PEOPLE["subject"]
OTHERS = [PEOPLE[k] for k in ("other1", "other2", "other3")]


def add_person(svc: App, person: tuple) -> None:
    """Store one invented person: file row, library copy (a real PDF), candidate, one chunk per CV line."""
    cid, name, email, phone, role, company, skills, lines = person
    cv = make_cv(name, [email], [phone], [(role, company, "2019-01", None)], skills=skills)
    sha = (cid * 4)[:64]
    catalog = svc.catalog  # (opened before the library holds a file)
    lib = svc.paths.data_dir / "library"
    lib.mkdir(parents=True, exist_ok=True)
    stored = lib / f"{sha}.pdf"
    stored.write_bytes(one_page_pdf("\n".join([name, email, phone, *lines])))
    fid = catalog.upsert_file(sha=sha, original_path=f"/cvs/{name.replace(' ', '_')}.pdf",
                              file_name=f"{name.replace(' ', '_')}.pdf", size=1, status="processing",
                              stored_path=str(stored))
    texts = [f"{name} {email} {phone}", *lines]
    chunks = [Chunk(chunk_id=f"{cid}-{i}", candidate_id=cid, section="contact" if i == 0 else "experience",
                    ordinal=i, text=t, header="") for i, t in enumerate(texts)]
    catalog.save_candidate(cid, sha, cv, chunks, fid)


def build(svc: App) -> None:
    """The shared library: chats, a job match, a shortlist, notes and audit entries naming several people."""
    for p in PEOPLE.values():
        add_person(svc, p)
    sid, y, x, w = SUBJECT[0], OTHERS[0][0], OTHERS[1][0], OTHERS[2][0]
    for question in ("Who knows Python?", "Compare Zelda Quorn and Yusuf Brannigan",
                     "Who worked with Spark or PyTorch?", "Who knows SQL?", "What does Zelda Quorn do?"):
        svc.assistant.ask(question, use_llm=False)
    jd = "Data engineer. Must have: Python. Nice to have: Spark."
    svc.jobs.save_match(svc.assistant.match_jd(jd, use_llm=False), jd)
    sl = svc.shortlists.create("Backfill for Yusuf Brannigan")
    svc.shortlists.add(sl.shortlist_id, [sid], note="Stronger than Xenia Morrow (xenia.morrow@morrowpost.test)")
    svc.shortlists.add(sl.shortlist_id, [y, x, w], note="Also call Wendell Pike on +44 7700 900444")
    svc.screening.set_screening([sid], status="interview", rating=4, add_tags=["not-like-Pike"],
                                note="Ask whether she knows Yusuf Brannigan from Globex Freight; ref 7e11a0000000aa02")
    svc.screening.set_screening([y], note="Knows Zelda Quorn")
    svc.screening.set_screening([sid, y, x], status="screening")
    svc.blind.reveal_candidate(sid, reason="same panel as Xenia Morrow")


def zip_text(path) -> str:
    """Every file of the zip decompressed, as text; a PDF as its extracted text too."""
    import pymupdf

    parts = []
    with zipfile.ZipFile(path) as z:
        for name in z.namelist():
            raw = z.read(name)
            parts.append(name)
            parts.append(raw.decode("utf-8", errors="replace"))
            if name.lower().endswith(".pdf"):
                with pymupdf.open(stream=raw, filetype="pdf") as doc:
                    parts.extend(page.get_text() for page in doc)
    return "\n".join(parts)


def needles(svc: App, person: tuple) -> dict[str, str]:
    """What identifies one person: what -> string to search for."""
    cid, name, email, phone, _role, _company, _skills, lines = person
    out = {"name": name, "e-mail": email, "phone": phone, "phone digits": re.sub(r"\D", "", phone),
           "candidate id": cid, "file sha": (cid * 4)[:64], "surname": name.split()[-1]}
    out.update({f"line {i}": line for i, line in enumerate(lines)})
    for i, ref in enumerate(svc.audit.known_refs([cid])):
        out[f"audit reference {i}"] = ref
    return out


def hits(text: str, wanted: dict[str, str]) -> list[str]:
    folded, digits = text.casefold(), re.sub(r"\D", "", text)
    out = []
    for what, value in wanted.items():
        hay = digits if what == "phone digits" else folded
        if value.casefold() in hay:
            out.append(f"{what}: {value}")
    return out


@pytest.fixture
def library():
    svc = App()
    build(svc)
    yield svc
    svc.close()


def test_the_export_holds_the_subject_alone(library, tmp_path):
    svc = library
    others = {p[1]: needles(svc, p) for p in OTHERS}
    assert all(any(k.startswith("audit reference") for k in n) for n in others.values()), \
        "the others have audit entries: the test would not look for their references"
    out = svc.compliance.export_subject(SUBJECT[0], tmp_path / "zelda.zip")
    text = zip_text(out["path"])
    leaks = {name: found for name, n in others.items() if (found := hits(text, n))}
    assert leaks == {}, f"the export names other people: {leaks}"
    own = hits(text, needles(svc, SUBJECT))
    assert {"name: Zelda Quorn", "e-mail: zelda.quorn@quornmail.test", "phone: +44 7700 900111"} <= set(own), own
    assert sum(w.startswith("line") for w in own) == 3 and any(w.startswith("audit reference") for w in own), own


def test_the_subjects_own_records_are_all_there(library, tmp_path):
    svc = library
    out = svc.compliance.export_subject(SUBJECT[0], tmp_path / "zelda.zip")
    with zipfile.ZipFile(out["path"]) as z:
        data = json.loads(z.read("subject.json"))
        summary = z.read("summary.html").decode("utf-8")
    doc = data["documents"][0]
    assert doc["candidate_id"] == SUBJECT[0] and len(doc["chunks"]) == 4
    assert doc["screening"][0]["status"] == "screening" and doc["screening"][0]["rating"] == 4
    note = doc["screening"][0]["note"]
    assert note.startswith("Ask whether she knows another candidate from") and "7e11a" not in note
    assert doc["shortlists"][0]["note"] == "Stronger than another candidate (another candidate)"
    assert doc["shortlists"][0]["name"] == "Backfill for another candidate"
    assert doc["job_matches"] and doc["job_matches"][0]["row"]["candidate_id"] == SUBJECT[0]
    assert doc["identity_reveals"][0]["reason"] == "same panel as another candidate"
    actions = {e["action"] for e in data["audit_entries"]}
    assert {"screening.status", "screening.rating", "shortlist.add", "job_match.run", "job_match.save",
            "chat.answer", "blind.reveal"} <= actions, actions
    refs = set(data["audit_references"])
    for e in data["audit_entries"]:  # every entry about them is there, another person's reference replaced
        for ref in [e["person"], *e["details"].get("ranking", []), *e["details"].get("documents", [])]:
            assert ref is None or ref in refs or ref == "another candidate", e
    turns = [m for t in data["chat_threads"] for m in t["messages"]]
    answers = [m for m in turns if m["role"] == "assistant"]
    assert answers and all(m["people"] == [SUBJECT[0]] or not m["people"] for m in answers), answers
    assert any("Zelda Quorn" in m["content"] for m in answers)
    cited = [c for m in answers for c in m["candidates"]]
    assert cited and all(c["candidate_id"] == SUBJECT[0] for c in cited)
    sql_thread = [t for t in data["chat_threads"] if t["title"] == "Who knows SQL?"]
    assert sql_thread == []  # a conversation that never mentions them is not theirs
    assert "Zelda Quorn" in summary and "Backfill for another candidate" in summary


def test_a_turn_about_others_only_is_left_out_of_a_thread_that_names_the_subject(library, tmp_path):
    svc = library
    thread = svc.assistant.ask("What does Zelda Quorn do?", use_llm=False)["thread_id"]
    svc.assistant.ask("Who knows SQL?", use_llm=False, thread_id=thread)
    out = svc.compliance.export_subject(SUBJECT[0], tmp_path / "zelda.zip")
    with zipfile.ZipFile(out["path"]) as z:
        data = json.loads(z.read("subject.json"))
    mine = next(t for t in data["chat_threads"] if t["thread_id"] == thread)
    assert [m["content"] for m in mine["messages"] if m["role"] == "user"] == ["What does Zelda Quorn do?"]
    assert mine["turns_left_out"] == 1


def test_other_forms_of_another_persons_identifiers_are_left_out(library, tmp_path):
    svc = library
    wid = OTHERS[2][0]  # Wendell Pike
    svc.screening.set_screening([SUBJECT[0]], add_tags=["pike-shortlist"],
                                note=f"pike is stronger than PIKE; see Wendell_Pike.pdf, Wendell_Pike, "
                                     f"{wid[:12]}-Wendell_Pike.pdf and {pseudonym(wid)}")
    out = svc.compliance.export_subject(SUBJECT[0], tmp_path / "zelda.zip")
    text = zip_text(out["path"])
    wanted = {"surname": "pike", "file stem": "Wendell_Pike", "id prefix": wid[:12],
              "pseudonym": pseudonym(wid).split()[-1]}
    assert hits(text, wanted) == []
    assert "Zelda Quorn" in text and "Acme Widgets" in text and "shortlist" in text


def test_the_cli_export_holds_the_subject_alone(library, tmp_path, capsys):
    from cvrag_desktop.cli.entry import main

    svc = library
    others = {p[1]: needles(svc, p) for p in OTHERS}
    svc.close()
    assert main(["people", "export-subject", SUBJECT[0], "--out", str(tmp_path / "z.zip")]) == 0
    assert "3 conversation(s)" in capsys.readouterr().out
    text = zip_text(tmp_path / "z.zip")
    assert {name: found for name, n in others.items() if (found := hits(text, n))} == {}
    assert "Zelda Quorn" in text
