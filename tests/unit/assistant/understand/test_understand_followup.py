"""Follow-ups narrow the previous answer's people in the same thread (en, de, es, pl), and say how they were read."""

from __future__ import annotations

from cvrag_desktop.assistant.understand.followup import NO_PREVIOUS, follow_up, seniority_titles


def _names(reply: dict) -> set[str]:
    return {line.split(" [")[0].lstrip("- ").strip() for line in reply["answer"].splitlines() if line.startswith("- ")}


def test_which_of_them_narrows_the_previous_list(assistant):
    """'which of them speak English?' after 'who worked at Globex?' keeps only Globex people."""
    first = assistant.ask("Who worked at Globex?", use_llm=False)
    assert _names(first) == {"Ana Núñez", "Cara Lopez"}
    reply = assistant.ask("Which of them speak English?", thread_id=first["thread_id"], use_llm=False)
    assert _names(reply) == {"Cara Lopez"}  # Ben speaks English too, but never worked at Globex
    assert reply["follow_up"]["previous"] == "Who worked at Globex?"
    assert reply["answer"].startswith("Read as: ")
    assert "among the 2 people of the previous answer" in reply["answer"]


def test_german_group_reference(assistant):
    """'Welche von ihnen …' is the same follow-up in German."""
    first = assistant.ask("Wer spricht Deutsch?", use_llm=False)
    assert _names(first) == {"Ana Núñez", "Dan Weber"}
    reply = assistant.ask("Welche von ihnen kennen Python?", thread_id=first["thread_id"], use_llm=False)
    assert _names(reply) == {"Ana Núñez"}
    assert reply["follow_up"]["within"]


def test_spanish_elliptic_place(assistant):
    """'¿Y en Madrid?' adds a place to the previous question's people."""
    first = assistant.ask("¿Quién habla español?", use_llm=False)
    assert _names(first) == {"Ana Núñez", "Cara Lopez"}
    reply = assistant.ask("y en Madrid?", thread_id=first["thread_id"], use_llm=False)
    assert _names(reply) == {"Ana Núñez"}


def test_polish_group_reference(assistant):
    """'Którzy z nich …' in Polish."""
    first = assistant.ask("Who speaks Spanish?", use_llm=False)
    reply = assistant.ask("Którzy z nich znają Java?", thread_id=first["thread_id"], use_llm=False)
    assert _names(reply) == {"Cara Lopez"}


def test_a_follow_up_with_no_previous_turn_is_answered_on_its_own(assistant):
    """A new thread has nothing to narrow: the question is answered as it stands, with a note."""
    reply = assistant.ask("Which of them know Python?", use_llm=False)
    assert reply["answer"].startswith(NO_PREVIOUS)
    assert NO_PREVIOUS in reply["notes"]
    assert _names(reply) == {"Ana Núñez"}


def test_a_question_on_its_own_is_no_follow_up(assistant):
    """A second ordinary question in a thread is not narrowed by the first."""
    first = assistant.ask("Who worked at Globex?", use_llm=False)
    reply = assistant.ask("Who speaks English?", thread_id=first["thread_id"], use_llm=False)
    assert _names(reply) == {"Ben Ortiz", "Cara Lopez"}
    assert not reply["follow_up"]


def test_reading_of_follow_up_phrases():
    """The reference words are taken out; seniority words become title filters."""
    assert follow_up("which of them know Python?").rest == "which know Python?"
    assert follow_up("and in Berlin?").rest == "in Berlin?"
    assert follow_up("only the seniors").rest == "seniors"
    assert follow_up("Who knows Python?") is None
    assert follow_up("Andrew Wang's employer?") is None  # 'and' only as a word of its own
    assert seniority_titles("seniors")[0] == ["Senior"]
    assert seniority_titles("nur die Senioren")[0] == ["Senior"]
