"""`cvrag search` / `cvrag reindex` argument parsing and output."""

from __future__ import annotations

import argparse
import json

from cvrag_desktop.app.assembly import App
from cvrag_desktop.cli.search import register
from cvrag_desktop.config import Settings, app_paths
from tests.unit.index import conftest as index_people

catalog, service = index_people.catalog, index_people.service  # fixtures: the index tests' four people


def _app(service) -> App:
    """The application over the fixture's catalog and built index (what ``cvrag`` hands every command)."""
    return App(app_paths(), Settings(), catalog=service.catalog, index=service)


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="cvrag")
    register(p.add_subparsers(dest="command", required=True), None)
    return p


def test_search_args_become_filters(service, capsys):
    args = parser().parse_args(["search", "streaming", "--skill", "kafka", "--min-years", "5", "--k", "3",
                                "--strategy", "filtered", "--json"])
    assert args.func(args, _app(service)) == 0
    hits = json.loads(capsys.readouterr().out)
    assert hits and {h["candidate_id"] for h in hits} == {"cand_ana"}


def test_plain_output_and_reindex(service, capsys):
    args = parser().parse_args(["search", "--language", "german", "--strategy", "metadata"])
    args.func(args, _app(service))
    out = capsys.readouterr().out
    assert "Ana Núñez" in out and "Dan Weber" in out
    args = parser().parse_args(["reindex"])
    args.func(args, _app(service))
    assert "indexed 4 candidates" in capsys.readouterr().out
