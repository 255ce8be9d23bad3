"""Library paths relative to the data home: stored, resolved, migrated, and never outside the home."""

from __future__ import annotations

import json
import sqlite3

from cvrag_desktop.catalog.db import Catalog
from cvrag_desktop.catalog.store.home_paths import library_entry, relocated, resolve_stored, to_stored
from cvrag_desktop.catalog.store.schema import SCHEMA_VERSION

SHA = "ab" * 32


def test_paths_inside_the_home_are_stored_relative(tmp_path):
    home = tmp_path / "data"
    assert to_stored(home, home / "library" / f"{SHA}.pdf") == f"library/{SHA}.pdf"
    assert to_stored(home, "/elsewhere/x.pdf") == "/elsewhere/x.pdf"
    assert resolve_stored(home, f"library/{SHA}.pdf") == str(home / "library" / f"{SHA}.pdf")
    assert relocated(home, f"/old/place/data/library/{SHA}.pdf") == f"library/{SHA}.pdf"
    assert relocated(home, "/old/place/notes/x.pdf") == "/old/place/notes/x.pdf"


def test_library_entry_refuses_what_is_not_in_this_library(tmp_path):
    home = tmp_path / "data"
    (home / "library").mkdir(parents=True)
    assert library_entry(home, f"library/{SHA}.pdf") == home / "library" / f"{SHA}.pdf"
    assert library_entry(home, str(tmp_path / "other" / "library" / f"{SHA}.pdf")) is None
    assert library_entry(home, "library/../catalog.sqlite3") is None
    assert library_entry(home, "/etc/passwd") is None


def test_catalog_stores_relative_and_returns_absolute(tmp_path):
    home = tmp_path / "data"
    cat = Catalog(home / "catalog.sqlite3")
    cat.upsert_file(sha=SHA, original_path="/in/a.pdf", file_name="a.pdf", size=1, status="queued",
                    stored_path=str(home / "library" / f"{SHA}.pdf"))
    assert cat.query("SELECT stored_path FROM files")[0][0] == f"library/{SHA}.pdf"
    assert cat.files()[0]["stored_path"] == str(home / "library" / f"{SHA}.pdf")
    cat.close()


def test_schema_7_migrates_absolute_rows_and_journal(tmp_path):
    old_home, home = tmp_path / "old" / "data", tmp_path / "new" / "data"
    cat = Catalog(home / "catalog.sqlite3")
    cat.upsert_file(sha=SHA, original_path="/in/a.pdf", file_name="a.pdf", size=1, status="done")
    cat.close()
    conn = sqlite3.connect(home / "catalog.sqlite3")  # as an older version wrote it, in its old place
    conn.execute("UPDATE files SET stored_path = ?", (str(old_home / "library" / f"{SHA}.pdf"),))
    conn.execute("INSERT INTO pending_forget(candidate_ids, stored_paths, needles, created_at) VALUES "
                 "('[]', ?, '[]', 0)", (json.dumps([str(old_home / "library" / "cd.pdf")]),))
    conn.execute("UPDATE meta SET value = '6' WHERE key = 'schema_version'")
    conn.commit()
    conn.close()
    cat = Catalog(home / "catalog.sqlite3")
    assert cat.schema_version() == SCHEMA_VERSION >= 7
    assert cat.query("SELECT stored_path FROM files")[0][0] == f"library/{SHA}.pdf"
    assert cat.pending_forgets()[0]["stored_paths"] == ["library/cd.pdf"]
    assert cat.pending_forgets()[0]["identity"] == []
    cat.close()
