"""A claim that negates its cited line is rejected; agreeing negatives and plain positives pass.

(claim, evidence) pairs invented here (no real CV text), in seven languages, in the four
combinations: positive/positive and negated/negated must pass, negated/positive and
positive/negated must be rejected. The confusion counts are asserted (and printed with -s).
"""

from __future__ import annotations

import datetime as dt

import pytest

from cvrag_desktop.assistant.answer.contract import AnswerReply, validate_reply
from cvrag_desktop.assistant.answer.polarity import polarity_clashes, topics
from cvrag_desktop.assistant.answer.support import unsupported_claims

TODAY = dt.date(2026, 6, 1)
NAME = "Ana Núñez"

# (claim, evidence, language)
POS_POS = [
    ("Ana Núñez built Kafka pipelines [E1].", "Data Engineer at Brontide. Built Kafka pipelines for payments.", "en"),
    ("She has Kafka experience [E1].", "Migrated the Kafka clusters without downtime.", "en"),
    ("She knows Kafka, not only Python [E1].", "Skills: Python, Kafka, Go", "en"),
    ("Ana Núñez hat Kafka-Pipelines gebaut [E1].", "Dateningenieurin bei Brontide: Kafka-Pipelines gebaut, ohne Ausfallzeit.",
     "de"),
    ("Ana Núñez a conçu des pipelines Kafka [E1].", "Ingénieure données : pipelines Kafka conçus pour les paiements.", "fr"),
    ("Ana Núñez desarrolló pipelines con Kafka [E1].", "Ingeniera de datos. Desarrolló pipelines con Kafka y Spark.", "es"),
    ("Ana Núñez trabalhou com Kafka no Brasil [E1].", "Engenheira de dados em São Paulo: pipelines Kafka no Brasil.", "pt"),
    ("Ana Núñez bouwde Kafka-pijplijnen [E1].", "Data engineer bij Brontide: Kafka-pijplijnen gebouwd.", "nl"),
    ("Ana Núñez ha sviluppato pipeline Kafka [E1].", "Ingegnere dati: sviluppato pipeline Kafka per i pagamenti.", "it"),
    ("She moved eight services to GitHub Actions with zero-downtime deployments [E1].",
     "Moved eight services to GitHub Actions; zero-downtime deployments.", "en"),
    ("She no longer works at Brontide; she built Kafka pipelines there [E1].",
     "2018 - 2021 Data Engineer, Brontide. Built Kafka pipelines.", "en"),
]
NEG_POS = [
    ("Ana Núñez has no Kafka experience at all [E1].", "Data Engineer at Brontide. Built Kafka pipelines for payments.",
     "en"),
    ("She has never used Kafka [E1].", "Skills: Python, Kafka, Go", "en"),
    ("Ana Núñez does not know Python [E1].", "Skills: Python, Kafka, Go", "en"),
    ("Ana Núñez hat keine Kafka-Erfahrung [E1].", "Dateningenieurin: Kafka-Pipelines gebaut.", "de"),
    ("Ana Núñez n'a aucune expérience de Kafka [E1].", "Ingénieure données : pipelines Kafka conçus.", "fr"),
    ("Ana Núñez no tiene experiencia con Kafka [E1].", "Desarrolló pipelines con Kafka y Spark.", "es"),
    ("Ana Núñez não tem experiência com Kafka [E1].", "Engenheira de dados: pipelines Kafka em produção.", "pt"),
    ("Ana Núñez heeft geen ervaring met Kafka [E1].", "Data engineer: Kafka-pijplijnen gebouwd.", "nl"),
    ("Ana Núñez non conosce Kafka [E1].", "Ingegnere dati: pipeline Kafka per i pagamenti.", "it"),
]
NEG_NEG = [
    ("Ana Núñez has no driving licence [E1].", "Other: no driving licence.", "en"),
    ("She has never used Kafka [E1].", "Python developer; never used Kafka in production.", "en"),
    ("Ana Núñez hat keinen Führerschein [E1].", "Sonstiges: kein Führerschein.", "de"),
    ("Ana Núñez n'a pas de permis de conduire [E1].", "Divers : sans permis de conduire.", "fr"),
    ("Ana Núñez no tiene carné de conducir [E1].", "Otros: sin carné de conducir.", "es"),
    ("Ana Núñez não tem carta de condução [E1].", "Outros: sem carta de condução.", "pt"),
    ("Ana Núñez heeft geen rijbewijs [E1].", "Overig: geen rijbewijs.", "nl"),
    ("Ana Núñez non ha la patente [E1].", "Altro: senza patente.", "it"),
]
POS_NEG = [
    ("Ana Núñez has a driving licence [E1].", "Other: no driving licence.", "en"),
    ("She used Kafka in production [E1].", "Python developer; never used Kafka in production.", "en"),
    ("Ana Núñez hat einen Führerschein [E1].", "Sonstiges: kein Führerschein.", "de"),
    ("Ana Núñez a un permis de conduire [E1].", "Divers : sans permis de conduire.", "fr"),
    ("Ana Núñez tiene carné de conducir [E1].", "Otros: sin carné de conducir.", "es"),
    ("Ana Núñez tem carta de condução [E1].", "Outros: sem carta de condução.", "pt"),
    ("Ana Núñez heeft een rijbewijs [E1].", "Overig: geen rijbewijs.", "nl"),
    ("Ana Núñez ha la patente [E1].", "Altro: senza patente.", "it"),
]
ALL = ([(c, e, lang, False) for c, e, lang in POS_POS + NEG_NEG]
       + [(c, e, lang, True) for c, e, lang in NEG_POS + POS_NEG])


def clashes(claim: str, evidence: str) -> list:
    """The polarity clashes of one claim against one excerpt (through the whole support check)."""
    given = {"E1": {"evidence_id": "E1", "candidate_id": "c1", "candidate_name": NAME, "text": evidence}}
    found = unsupported_claims(claim, ["E1"], given, "Who knows Kafka?", today=TODAY)
    return [u for u in found if u.denies]


@pytest.mark.parametrize(("claim", "evidence", "lang", "contradicts"), ALL)
def test_polarity_of_claim_and_evidence(claim, evidence, lang, contradicts):
    assert bool(clashes(claim, evidence)) == contradicts, (lang, claim, evidence)


def test_confusion_counts_over_the_set():
    counts = {"rejected_contradiction": 0, "passed_contradiction": 0, "rejected_agreement": 0, "passed_agreement": 0}
    for claim, evidence, _lang, contradicts in ALL:
        rejected = bool(clashes(claim, evidence))
        counts[f"{'rejected' if rejected else 'passed'}_{'contradiction' if contradicts else 'agreement'}"] += 1
    print(f"\npolarity confusion over {len(ALL)} pairs: {counts}")
    assert counts["passed_contradiction"] == 0 and counts["rejected_agreement"] == 0


def test_the_issues_negated_answer_is_not_shown_as_answered():
    evidence = [{"evidence_id": "E1", "candidate_id": "c1", "candidate_name": NAME,
                 "text": "Data Engineer at Brontide. Built Kafka pipelines for payments."}]
    reply = AnswerReply(status="answered", answer="Ana Núñez has no Kafka experience at all [E1].", citations=["E1"])
    plan = {"terms": ["kafka"]}
    problem = validate_reply(reply, evidence, plan, {"c1": NAME}, "Does Ana know Kafka?")
    assert problem is not None and "denies" in problem and "Kafka" in problem


def test_a_topic_written_both_ways_in_the_excerpt_gives_no_verdict():
    evidence = ["Used Kafka at Brontide. No Kafka at Globex."]
    assert polarity_clashes("She has no Kafka experience", evidence, frozenset()) == []
    assert polarity_clashes("She used Kafka", evidence, frozenset()) == []


def test_scope_ends_at_the_clause():
    found = {t.shown: t.negated for t in topics("No visa needed; Python and Kafka daily")}
    assert found["Kafka"] is False and found["visa"] is True
    assert {t.shown: t.negated for t in topics("Kafka kennt sie nicht")}["Kafka"] is True


def test_a_month_called_mai_and_a_non_compound_are_not_negations():
    def clash(claim: str, line: str) -> bool:
        return bool(polarity_clashes(claim, [line], frozenset()))

    assert not clash("Sie hat Erfahrung mit Java.", "Seit Mai 2019 Java-Entwicklerin bei Siemens")
    assert not clash("Elle maîtrise Python.", "Développeuse Python chez Airbus depuis mai 2019")
    assert not clash("He has Kafka experience.", "Built non-blocking Kafka pipelines")
    assert clash("Non ha mai usato Kafka.", "Ha costruito pipeline Kafka per i pagamenti.")
