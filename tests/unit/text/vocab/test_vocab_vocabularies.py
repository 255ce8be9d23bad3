"""The vocabularies of the bottom room: skills, spoken languages, degree levels, the data files."""

from __future__ import annotations

from cvrag_desktop.text.vocab.degrees import LEVEL_RANK, QUESTION_LEVELS, degree_level
from cvrag_desktop.text.vocab.languages import canonical_language, language_key, language_name
from cvrag_desktop.text.vocab.lexicon import load_lexicon
from cvrag_desktop.text.vocab.resources import resource_yaml, resources_dir
from cvrag_desktop.text.vocab.skills import AMBIGUOUS_SKILLS, canonical_skill, skill_key
from cvrag_desktop.text.vocab.titles import SENIORITY_WORDS, title_rank


def test_resources_are_found_and_parsed_copies():
    assert (resources_dir() / "lexicon.yaml").is_file()
    a = resource_yaml("lexicon.yaml")
    a["months"] = None
    assert resource_yaml("lexicon.yaml")["months"]  # each caller gets its own copy


def test_skills_through_the_alias_table():
    assert canonical_skill("React-Native") == canonical_skill("react native")
    assert canonical_skill("k8s") == "Kubernetes"
    assert canonical_skill("no such skill at all") is None
    assert skill_key("k8s") == skill_key("Kubernetes") == "kubernetes"
    assert skill_key("Underwater basket weaving") == "underwater basket weaving"
    assert "go" in AMBIGUOUS_SKILLS


def test_languages_by_any_name_and_level():
    assert canonical_language("Alemán") == canonical_language("Deutsch") == "German"
    assert language_key("German (C1)") == language_key("alemán") == "german"
    assert language_name("Alemán (B2)") == "German"
    assert language_name("Klingon - fluent") == "Klingon"


def test_degree_levels_as_printed_and_as_asked():
    assert degree_level("Máster en Ingeniería") == "master"
    assert degree_level("Dr. rer. nat.") == "phd"
    assert degree_level("Ciclo Formativo de Grado Superior") == "vocational"
    assert degree_level("Certificate of attendance") is None
    asked = [lvl for lvl, pattern in QUESTION_LEVELS if pattern.search("wer hat promoviert?")]
    assert asked == ["phd"] and LEVEL_RANK["phd"] > LEVEL_RANK["master"]


def test_the_lexicon_is_loaded_once():
    assert load_lexicon() is load_lexicon()
    assert load_lexicon().skill_pattern.search("we use Kubernetes daily")


def test_title_ranks_and_seniority_words():
    assert title_rank("Chief Technology Officer") == 5
    assert title_rank("Teamleiterin Vertrieb") == 3
    assert title_rank("Senior Data Engineer") == 2
    assert title_rank("Praktikant Marketing") == 0
    assert title_rank("Gardener") == 1  # no rank word: an ordinary title
    assert [name for name, pat in SENIORITY_WORDS if pat.match("Senioren")] == ["Senior"]
