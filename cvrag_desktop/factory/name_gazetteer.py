"""Build the name gazetteers of ``resources/names/`` from Faker's person providers (build time only).

``python -m cvrag_desktop.factory.name_gazetteer --out resources/names`` (``make names``) reads
every locale of ``faker.providers.person`` (Latin, Greek, Cyrillic, Arabic, Hebrew, Devanagari,
Thai, Chinese, Japanese, Korean... scripts), takes its given names (``first_names*``, romanised
forms too) and surnames (``last_names*``), folds them the way the product compares words
(:func:`~cvrag_desktop.text.keys.normalize_key`: case and accents off), de-duplicates and writes
``given.txt.gz`` and ``surname.txt.gz`` (sorted, one per line, gzip with a fixed time stamp, so a
rebuild is byte-identical) plus ``cjk_surnames.txt`` (the Chinese, Japanese and Korean surnames, as
written, for a CJK name printed without spaces). The product never imports Faker: it reads only
these files (:mod:`cvrag_desktop.text.vocab.person_names`).
"""

from __future__ import annotations

import argparse
import gzip
import importlib
import io
import pkgutil
import re
from collections.abc import Iterable
from pathlib import Path

from cvrag_desktop.text.keys import normalize_key

_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uac00-\ud7af]")
_CJK_LOCALES = ("zh_CN", "zh_TW", "ja_JP", "ko_KR")
# common surnames Faker's CJK providers leave out (ja_JP lists 50): the next most frequent Japanese surnames and the
# Chinese compound (two-character) surnames
_EXTRA_CJK_SURNAMES = ["吉田", "山田", "佐々木", "山口", "松本", "井上", "木村", "林", "斎藤", "清水", "山崎", "森", "池田", "橋本", "阿部", "石川", "山下", "中島", "石井", "小川", "前田", "岡田", "長谷川", "藤田", "後藤", "近藤", "村上", "遠藤", "青木", "坂本", "斉藤", "福田", "太田", "西村", "藤井", "金子", "岡本", "藤原", "中野", "三浦", "原田", "中川", "松田", "竹内", "小野", "田村", "中山", "和田", "石田", "森田", "上田", "原", "内田", "柴田", "酒井", "宮崎", "横山", "高木", "安藤", "宮本", "大野", "小島", "谷口", "今井", "工藤", "高田", "増田", "丸山", "杉山", "村田", "大塚", "新井", "小山", "平野", "藤本", "河野", "上野", "野口", "武田", "松井", "千葉", "岩崎", "菅原", "木下", "久保", "佐野", "野村", "松尾", "菊地", "杉本", "市川", "古川", "大西", "島田", "水野", "桜井", "高野", "渡部", "吉川", "山内", "西田", "飯田", "菊池", "西川", "小松", "北村", "安田", "五十嵐", "川口", "平田", "関", "中田", "久保田", "服部", "東", "岩田", "土屋", "川崎", "福島", "本田", "辻", "樋口", "秋山", "田口", "永井", "山中", "中西", "吉村", "川上", "石原", "大橋", "松岡", "馬場", "浜田", "森本", "星野", "矢野", "浅野", "大久保", "松下", "小池", "野田", "荒木", "大谷", "内藤", "松浦", "熊谷", "黒田", "尾崎", "永田", "川村", "望月", "田辺", "松村", "荒井", "堀", "大石", "須藤", "片山", "河合", "平井", "欧阳", "司马", "上官", "诸葛", "东方", "皇甫", "尉迟", "公孙", "慕容", "令狐", "司徒", "夏侯", "长孙", "宇文", "轩辕", "端木", "南宫", "西门", "独孤", "歐陽", "司馬", "諸葛", "東方"]
# a token of a name entry: letters (any script), inner apostrophes and hyphens ("O'Neill", "Jean-Luc")
_TOKEN = re.compile(r"^[^\W\d_]+(?:['’\-][^\W\d_]+)*$")


def _entries(value: object) -> Iterable[str]:
    """The strings of a provider attribute: a tuple, list or weighted dict of names (keys), nested or not."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key in value:
            yield from _entries(key)
    elif isinstance(value, (list, tuple, set, frozenset)):
        for item in value:
            yield from _entries(item)


def _tokens(entry: str) -> list[str]:
    """The folded name words of one entry: "van der Berg" → ["berg"] (lower-case particles are not names);
    a CJK entry stays whole ("王", "山田")."""
    entry = entry.strip()
    if _CJK.search(entry):
        return [entry] if " " not in entry else [t for t in entry.split() if t]
    out = []
    for word in entry.split():
        if not _TOKEN.match(word) or (word[:1].islower() and word[:1] != word[:1].upper()):
            continue  # "van", "de", "da": particles, never a name word on their own
        key = normalize_key(word)
        if len(key) >= 2:
            out.append(key)
            if "-" in key:
                out.extend(p for p in key.split("-") if len(p) >= 2)  # "jean-luc" also gives "jean", "luc"
    return out


def collect() -> tuple[set[str], set[str], set[str], list[str]]:
    """(given names, surnames, CJK surnames as written, locales read) over every Faker person provider."""
    import faker.providers.person as person  # deferred: Faker is a build-time source, never run time

    given: set[str] = set()
    surnames: set[str] = set()
    cjk_surnames: set[str] = set()
    locales = []
    for mod in sorted(pkgutil.iter_modules(person.__path__), key=lambda m: m.name):
        provider = getattr(importlib.import_module(f"{person.__name__}.{mod.name}"), "Provider", None)
        if provider is None:
            continue
        locales.append(mod.name)
        for attr in sorted(vars(provider)):
            value = getattr(provider, attr, None)
            if callable(value) or isinstance(value, property):
                continue
            # first_names_female, first_romanized_names, first_kana_names; last_names, male_last_names...
            kind = given if "first" in attr and "name" in attr else \
                surnames if "last" in attr and "name" in attr else None
            if kind is None:
                continue
            for entry in _entries(value):
                kind.update(_tokens(entry))
                if kind is surnames and mod.name in _CJK_LOCALES and _CJK.search(entry):
                    cjk_surnames.add(entry.strip())
    # Polish providers list the masculine surname only and inflect it when they draw a woman's ("Kowalski" → "Kowalska")
    surnames.update(w[:-1] + "a" for w in list(surnames) if w.endswith(("ski", "cki", "dzki")))
    cjk_surnames.update(_EXTRA_CJK_SURNAMES)
    surnames.update(_EXTRA_CJK_SURNAMES)
    return given, surnames, cjk_surnames, locales


def _write_gz(path: Path, words: Iterable[str]) -> None:
    data = ("\n".join(sorted(words)) + "\n").encode("utf-8")
    buf = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buf, mtime=0, compresslevel=9) as gz:
        gz.write(data)
    path.write_bytes(buf.getvalue())


def build(out: Path) -> dict[str, int]:
    """Write the gazetteer files into ``out``; returns the counts and sizes written."""
    given, surnames, cjk_surnames, locales = collect()
    out.mkdir(parents=True, exist_ok=True)
    _write_gz(out / "given.txt.gz", given)
    _write_gz(out / "surname.txt.gz", surnames)
    (out / "cjk_surnames.txt").write_text("\n".join(sorted(cjk_surnames)) + "\n", encoding="utf-8")
    files = ("given.txt.gz", "surname.txt.gz", "cjk_surnames.txt")
    return {"locales": len(locales), "given": len(given), "surnames": len(surnames),
            "cjk_surnames": len(cjk_surnames), "bytes": sum((out / f).stat().st_size for f in files)}


def main(argv: list[str] | None = None) -> int:
    """Command line: ``--out`` the folder (``resources/names``)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=Path("resources/names"))
    args = ap.parse_args(argv)
    stats = build(args.out)
    print(" ".join(f"{k}={v}" for k, v in stats.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
