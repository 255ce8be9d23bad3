"""A person's turns of shared conversations (their access export): their lines, citations and ids, nobody else's."""

from __future__ import annotations

from cvrag_desktop.assistant.thread_export import subject_turns
from cvrag_desktop.catalog.compliance.subject_redact import SubjectPeople
from cvrag_desktop.catalog.db import Catalog
from tests.support.people_docs import add_document, make_cv


class People:
    """The subject is Zelda; Yusuf, Xenia and their employer Globex name others."""

    def names_subject(self, text: str) -> bool:
        return "Zelda" in text

    def names_others(self, text: str) -> bool:
        return any(w in text for w in ("Yusuf", "Xenia", "Globex"))


def cited(*ids: str) -> list[dict]:
    return [{"candidate_id": i, "name": i, "quote": f"a line of {i}"} for i in ids]


def turn(question: str, content: str, ids: list[str]) -> list[dict]:
    return [{"role": "user", "content": question},
            {"role": "assistant", "content": content, "status": "answered", "candidates": cited(*ids), "people": ids}]


def export(*turns: list[dict]) -> list[dict]:
    thread = {"thread_id": "t1", "title": "t", "messages": [m for t in turns for m in t]}
    return subject_turns([thread], ["z"], People())


def answer_of(threads: list[dict], n: int = 0) -> dict:
    return [m for m in threads[0]["messages"] if m["role"] == "assistant"][n]


def test_a_list_keeps_its_heading_and_the_subjects_line():
    got = answer_of(export(turn("Who knows Python?", "Candidates with Python:\n- Xenia [E1]\n- Yusuf [E2]\n- Zelda [E3]",
                                ["x", "y", "z"])))
    assert got["content"] == "Candidates with Python:\n- Zelda [E3]"
    assert [c["candidate_id"] for c in got["candidates"]] == ["z"] and got["people"] == ["z"]
    assert got["lines_left_out"] == 2 and got["other_candidates_left_out"] == 2


def test_a_comparison_keeps_the_subjects_rows_under_their_headings():
    content = ("Zelda and Yusuf side by side:\n\nCurrent role:\n- Zelda: Data Engineer [E1]\n- Yusuf: Backend at Globex [E3]"
               "\n\nEducation:\n- Yusuf: BSc [E4]\n\nSkills both list: Python")
    got = answer_of(export(turn("Compare Zelda and Yusuf", content, ["z", "y"])))
    assert got["content"] == "Zelda and Yusuf side by side:\n\nCurrent role:\n- Zelda: Data Engineer [E1]"
    assert got["lines_left_out"] == 4  # Yusuf's two rows, the heading over nothing of hers, the shared line


def test_details_under_the_subjects_name_stay_and_sentences_about_others_go():
    got = answer_of(export(turn("What does Zelda do?", "Zelda:\n- Data Engineer at Acme [E1]", ["z"])))
    assert got["content"] == "Zelda:\n- Data Engineer at Acme [E1]" and got["lines_left_out"] == 0
    prose = "Zelda built Spark jobs [E1]. Yusuf wrote Go [E2]. Both know Python.\nHe was at Globex.\nShe leads."
    got = answer_of(export(turn("Who knows Spark?", prose, ["z", "y"])))
    assert got["content"] == "Zelda built Spark jobs [E1]."


def test_turns_about_others_only_are_left_out_and_counted():
    threads = export(turn("What does Zelda do?", "Zelda:\n- Data Engineer [E1]", ["z"]),
                     turn("Who knows SQL?", "Candidates with SQL:\n- Xenia [E1]", ["x"]),
                     turn("Is Zelda in Leeds?", "I could not find support for an answer in the CVs.", []))
    questions = [m["content"] for m in threads[0]["messages"] if m["role"] == "user"]
    assert questions == ["What does Zelda do?", "Is Zelda in Leeds?"]  # an answer about nobody, asked about her
    assert threads[0]["turns_left_out"] == 1
    assert answer_of(threads, 1)["content"] == "I could not find support for an answer in the CVs."


def test_a_thread_with_no_turn_of_theirs_is_left_out():
    assert export(turn("Who knows SQL?", "Candidates with SQL:\n- Xenia [E1]", ["x"])) == []


def test_a_question_naming_the_subject_stays_when_the_answer_is_about_others_only():
    threads = export(turn("Is Zelda better than Yusuf?", "Yusuf [E1]: Go at Globex.\nXenia [E2] knows Go too.",
                          ["y", "x"]))
    assert [m["content"] for m in threads[0]["messages"] if m["role"] == "user"] == ["Is Zelda better than Yusuf?"]
    got = answer_of(threads)
    assert got["content"] == "" and got["candidates"] == [] and got["people"] == []
    assert got["lines_left_out"] == 2 and got["other_candidates_left_out"] == 2 and threads[0]["turns_left_out"] == 0


def test_an_ordinary_word_like_the_subjects_name_does_not_make_a_turn_theirs(tmp_path):
    cat = Catalog(tmp_path / "catalog.sqlite3")
    add_document(cat, "w", make_cv("Will Hartley", ["will@hartley.test"]))
    add_document(cat, "y", make_cv("Yusuf Brannigan", ["yusuf@brann.test"]))
    people = SubjectPeople(cat, ["w"])
    thread = {"thread_id": "t1", "title": "t", "messages": [
        *turn("Who will relocate?", "Yusuf Brannigan [E1]", ["y"]),
        *turn("Will Hartley or Yusuf?", "Yusuf Brannigan [E1]", ["y"])]}
    got = subject_turns([thread], ["w"], people)
    assert [m["content"] for m in got[0]["messages"] if m["role"] == "user"] == ["Will Hartley or Yusuf?"]
    assert got[0]["turns_left_out"] == 1
    cat.close()
