"""Counts agree with filters: on each labelled folder, every facet value's count is the chat count.

The folders are imported once per module into their own temporary homes (no model). For
every facet value with at least one person (a skill, a spoken language, a Degree choice,
a Min years value, a field of work), ``ask("how many …")`` through the assistant must report exactly the
number of people the candidate pane's facet shows.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cvrag_desktop.app.assembly import App
from cvrag_desktop.assistant.facts.facets import facet_counts
from cvrag_desktop.config import AppPaths
from tests.conftest import REAL_CVS

pytestmark = pytest.mark.slow
FOLDERS = ("real-cvs", "real-cvs-extra", "real-cvs-inbox")
DEGREE_QUESTIONS = {2: "How many candidates have a bachelor's degree or higher?",
                    3: "How many candidates have a master's degree or higher?",
                    4: "How many candidates have a doctorate?"}


def _count(services: App, question: str) -> int | str:
    """The number a count answer states (0 for "no imported CV matches"); the route when it is no count."""
    reply = services.assistant.ask(question, use_llm=False)
    n = reply["data"].get("count")
    if reply["route"] != "analytics" or n is None:
        return f"{reply['route']}: {reply['answer'][:80]}"
    head = re.match(r"(\d+) candidates? ", reply["answer"])
    assert head is None or int(head.group(1)) == n  # the text says the number the data holds
    return n


@pytest.fixture(scope="module", params=FOLDERS)
def imported(request, tmp_path_factory):
    """A folder imported into a fresh home; yields the session's services."""
    folder = REAL_CVS.parent / request.param / "pdf"
    if not folder.exists():
        pytest.skip(f"{request.param} dataset not available")
    root = tmp_path_factory.mktemp(f"home_{request.param}")
    services = App(AppPaths(root / "data", root / "config", root / "logs"))
    services.settings.llm_enabled = False
    report = services.library.ingest([Path(folder)], use_llm=False)
    assert report.ingested
    yield services
    services.close()


def test_every_facet_count_is_the_chat_count(imported: App):
    """Skills, languages, degree ranks and minimum years: facet count == chat count, value by value."""
    counts = facet_counts(imported.people.list_people())
    wrong = []
    for skill, n in counts["skills"].items():
        got = _count(imported, f"How many candidates know {skill}?")
        if got != n:
            wrong.append((skill, n, got))
    for language, n in counts["languages"].items():
        got = _count(imported, f"How many candidates speak {language}?")
        if got != n:
            wrong.append((language, n, got))
    for rank, n in counts["degree"].items():
        got = _count(imported, DEGREE_QUESTIONS[rank])
        if got != n:
            wrong.append((DEGREE_QUESTIONS[rank], n, got))
    for years, n in counts["min_years"].items():
        if years == 0:
            continue  # "at least 0 years" is no filter
        got = _count(imported, f"How many candidates have at least {years} years of experience?")
        if got != n:
            wrong.append((f"{years}+ years", n, got))
    for field, n in counts["fields"].items():  # the Field facet and "how many … have a role in nursing?"
        got = _count(imported, f"How many candidates have a role in {field}?")
        if got != n:
            wrong.append((field, n, got))
    assert not wrong, wrong
    assert counts["skills"] and counts["min_years"]  # the folder gave the test something to compare
