"""Name-likeness: a heading, a form label, an employment type or a CV title is never a person's name."""

from __future__ import annotations

import pytest

from cvrag_desktop.ingestion.fields.identity.namelike import known_name_share, name_like, vocabulary_word
from cvrag_desktop.ingestion.fields.identity.names import name_shaped, single_name

NOT_NAMES = [
    # section headings in several languages
    "Professional Activities", "Research Interests", "Studies", "Estudios", "Études", "Studien", "Formação Acadêmica",
    "Experiência Profissional", "Doświadczenie Zawodowe", "Werdegang", "Berufserfahrung", "Werkervaring",
    "Actividades Profesionales", "Attività Professionali", "Persönliche Daten", "Dane Osobowe", "Sobre Mim",
    # form labels
    "First Name", "Last Name", "Vorname", "Nachname", "Prénom", "Nom", "Nome", "Nombre", "Apellidos", "Naam",
    "Voornaam", "Imię", "Nazwisko", "Imię i Nazwisko", "Nome Completo", "Date of Birth", "Geburtsdatum",
    # employment types
    "Full Time", "Part-Time", "Vollzeit", "Teilzeit", "Temps Plein", "Tiempo Completo", "Tempo Integral", "Voltijd",
    "Pełny Etat",
    # the document's own title, in several scripts
    "Curriculum Vitae", "Lebenslauf", "Résumé", "Hoja de Vida", "Currículo", "Życiorys", "简历", "个人简历", "履歴書",
    "個人簡歴", "職務経歴書", "Candidate Profile",
    # fragments of a degree line
    "Bachelor of Science", "Master of Arts", "Mestrado em Engenharia", "Licenciatura en Derecho",
    "Engenharia Informática", "Computer Science", "Business Administration", "Electrical Engineering",
]
NAMES = ["Jan Kowalski", "Anna Schmidt", "Marie Dupont", "Teun van Bovenen", "Olívia da Mata", "Luiz da Cunha da Luz",
         "Diogo Andrade Sales", "Grace Cook", "Maria Civil", "Xanthe Quellbrook", "Ngozi Okonkwo-Adeyemi", "JAN KOWALSKI",
         "Дмитрий Иванов", "Γιώργος Παπαδόπουλος", "张伟", "欧阳修", "山田 太郎", "佐々木 健太郎", "김민수", "マリア・ガルシア"]


@pytest.mark.parametrize("text", NOT_NAMES)
def test_vocabulary_is_not_a_name(text):
    assert not name_like(text), text
    assert not name_shaped(text), text
    assert not single_name(text, 30, 10, labelled=True), text


@pytest.mark.parametrize("text", NAMES)
def test_people_are_names(text):
    assert name_like(text), text


def test_rare_names_pass_by_shape_and_known_names_rank_higher():
    assert name_like("Zephyrine Quorbalt")  # in no gazetteer and no vocabulary: a capitalised unknown word
    assert known_name_share("Anna Kowalski") == 1.0
    assert known_name_share("Zephyrine Quorbalt") == 0.0
    assert known_name_share("张伟") == 1.0 and known_name_share("履歴書") == 0.0


def test_vocabulary_words():
    for word in ("Engineer", "Vollzeit", "Lebenslauf", "Bachelor", "Python", "January", "German"):
        assert vocabulary_word(word), word
    for word in ("Kowalski", "Anna", "Zephyrine"):
        assert not vocabulary_word(word), word
