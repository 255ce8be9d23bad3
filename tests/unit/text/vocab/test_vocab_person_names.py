"""The name gazetteers of resources/names/: given names and surnames of many scripts, read without Faker."""

from __future__ import annotations

from pathlib import Path

from cvrag_desktop.text.vocab import person_names
from cvrag_desktop.text.vocab.person_names import (
    cjk_surname,
    is_given_name,
    is_name_word,
    is_surname,
    name_token_score,
)
from cvrag_desktop.text.vocab.resources import resources_dir


def test_given_names_and_surnames_of_many_scripts():
    for given in ("Anna", "JOÃO", "søren", "Dmitri", "Дмитрий", "Γιώργος", "Marianna", "Agnieszka"):
        assert is_given_name(given), given
    for surname in ("Kowalski", "Nowak", "Müller", "MÜLLER", "Παπαδόπουλος", "Kowalska", "Иванов", "García", "Jansen"):
        assert is_surname(surname), surname
    assert is_name_word("Jean-Luc") and is_name_word("Müller-Schmidt")


def test_vocabulary_words_are_not_names():
    for word in ("Experience", "Education", "Curriculum", "Vitae", "Lebenslauf", "Vollzeit", "Skills", "Studies"):
        assert not is_given_name(word) and not is_surname(word), word


def test_cjk_surnames_open_a_name():
    assert cjk_surname("张伟") == "张"
    assert cjk_surname("欧阳修") == "欧阳"
    assert cjk_surname("山田 太郎") == "山田"
    assert cjk_surname("佐々木健太郎") == "佐々木"
    assert cjk_surname("김민수") == "김"
    assert cjk_surname("王") == ""  # a surname alone is not a name that opens with one
    assert cjk_surname("履歴書") == ""


def test_name_token_score():
    assert name_token_score(["Anna", "Kowalski"]) == 1.0
    assert name_token_score(["Ludwig", "van", "der", "Berg"]) == 1.0  # particles are left out
    assert name_token_score(["Professional", "Activities"]) == 0.0
    assert name_token_score(["张伟"]) == 1.0
    assert name_token_score([]) == 0.0


def test_files_are_small_sorted_and_never_faker_at_run_time():
    folder = resources_dir() / "names"
    files = ["given.txt.gz", "surname.txt.gz", "cjk_surnames.txt", "not_names.txt", "README.md"]
    assert all((folder / f).is_file() for f in files)
    assert sum((folder / f).stat().st_size for f in files) < 1_000_000
    words = sorted(person_names._words("given.txt.gz"))
    assert len(words) > 20_000
    source = Path(person_names.__file__).read_text(encoding="utf-8")
    assert "import faker" not in source and "from faker" not in source
