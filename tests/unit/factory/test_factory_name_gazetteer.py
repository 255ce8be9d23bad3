"""The gazetteer build: every Faker person locale, folded, de-duplicated, byte-identical on a rebuild."""

from __future__ import annotations

import gzip

from cvrag_desktop.factory.name_gazetteer import _tokens, build


def test_tokens_fold_and_drop_particles():
    assert _tokens("van der Berg") == ["berg"]
    assert _tokens("Jean-Luc") == ["jean-luc", "jean", "luc"]
    assert _tokens("Ødegård") == ["ødegard"]  # the product's folding keeps ø, as it does when it reads a CV
    assert _tokens("欧阳") == ["欧阳"]
    assert _tokens("X") == []


def test_build_is_deterministic_and_covers_scripts(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    stats = build(a)
    build(b)
    for name in ("given.txt.gz", "surname.txt.gz", "cjk_surnames.txt"):
        assert (a / name).read_bytes() == (b / name).read_bytes(), name
    assert stats["locales"] >= 50 and stats["given"] > 20_000 and stats["surnames"] > 20_000
    given = gzip.decompress((a / "given.txt.gz").read_bytes()).decode().splitlines()
    assert given == sorted(set(given))
    for word in ("anna", "дмитрии", "γιωργοσ"):  # folded: case and accents off (й → и, ώ → ω, ς → σ)
        assert word in given, word
    cjk = (a / "cjk_surnames.txt").read_text(encoding="utf-8").split()
    assert {"王", "李", "佐藤", "김", "欧阳", "山田"} <= set(cjk)
