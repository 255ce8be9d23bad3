"""The shared grouping: same name key plus a shared contact or employer; merges and splits on top."""

from __future__ import annotations

import time

from cvrag_desktop.catalog.people import (
    DocumentKeys,
    document_keys,
    group_documents,
    newest_date,
    person_label,
    same_person,
)
from cvrag_desktop.text.names import name_key
from tests.support.people_docs import ANA_NEW, ANA_OLD, ANA_OTHER, BEN


def keys(cid: str, cv) -> DocumentKeys:
    return document_keys(cid, cv.name, cv.model_dump())


def test_name_key_folds_titles_accents_and_case():
    assert name_key("Dr. Ána RUIZ, M.Sc.") == "ana ruiz"
    assert name_key("Ana Ruiz's") == "ana ruiz"


def test_rule_needs_a_shared_contact_or_employer_and_no_contradiction():
    old, new, other = keys("a1", ANA_OLD), keys("a2", ANA_NEW), keys("a3", ANA_OTHER)
    assert same_person(old, new)
    assert not same_person(old, other)  # namesake: other contacts, other employer
    bare_a = document_keys("x1", "Ana Ruiz", {})
    bare_b = document_keys("x2", "Ana Ruiz", {})
    assert not same_person(bare_a, bare_b)  # the name alone never groups
    # a shared e-mail outweighs an employer list the extractor misread...
    misread = document_keys("x3", "Ana Ruiz", {"emails": ["ana.ruiz@ruizmail.net"],
                                               "experiences": [{"company": "Dates", "start": "2019"}]})
    assert same_person(old, misread)
    # ...but not when the phones differ too: a placeholder address shared by namesakes
    fake = document_keys("x5", "Ana Ruiz", {"emails": ["ana.ruiz@ruizmail.net"], "phones": ["+1 555 000 1234"],
                                            "experiences": [{"company": "Globex Corp", "start": "2019"}]})
    assert not same_person(old, fake)
    # other e-mails on both sides: two people, whatever else they share
    other_mail = document_keys("x6", "Ana Ruiz", {"emails": ["ana@elsewhere.org"], "phones": ["+34 600 111 222"],
                                                  "experiences": [{"company": "Northwind", "start": "2016"}]})
    assert not same_person(old, other_mail)
    # a template's placeholder address shared by namesakes with other employers and no shared phone: two people
    tmpl_a = document_keys("x7", "John Doe", {"emails": ["john.doe@email.com"],
                                              "experiences": [{"company": "Nexus AI", "start": "2020"}]})
    tmpl_b = document_keys("x8", "John Doe", {"emails": ["john.doe@email.com"], "phones": ["+1 415 555 0142"],
                                              "experiences": [{"company": "Stripe", "start": "2019"}]})
    assert not same_person(tmpl_a, tmpl_b)
    # an employer shared, one side lists no contacts: one person
    emp = document_keys("x4", "ANA RUIZ", {"experiences": [{"company": "Northwind", "start": "2016"}]})
    assert same_person(old, emp)


def test_a_misread_name_is_bridged_only_by_email_phone_and_employer_together():
    old = keys("a1", ANA_OLD)
    rec = ANA_OLD.model_dump()
    assert same_person(old, document_keys("m1", "Curriculum Vitae", rec))
    assert same_person(old, document_keys("m2", None, rec))
    assert not same_person(old, document_keys("m3", "Curriculum Vitae", {**rec, "phones": []}))
    g = group_documents([old, document_keys("m1", "Curriculum Vitae", rec)])
    assert len(g.people) == 1


def test_group_newest_first_and_namesakes_apart():
    g = group_documents([keys("a1", ANA_OLD), keys("a2", ANA_NEW), keys("a3", ANA_OTHER), keys("b1", BEN)])
    assert g.people["a2"] == ["a2", "a1"]  # the newer CV is primary, its id is the person's
    assert g.by_document["a1"] == "a2"
    assert g.people["a3"] == ["a3"] and g.people["b1"] == ["b1"]
    assert len(g.people) == 3


def test_merge_wins_over_rule_and_split_wins_over_rule():
    docs = [keys("a1", ANA_OLD), keys("a2", ANA_NEW), keys("a3", ANA_OTHER), keys("b1", BEN)]
    merged = group_documents(docs, [("a3", "b1", "same")])
    assert sorted(merged.documents_of("b1")) == ["a3", "b1"]
    split = group_documents(docs, [("a1", "a2", "apart")])
    assert split.documents_of("a1") == ["a1"] and split.documents_of("a2") == ["a2"]
    # a merge covers the documents it links (services link every document of both people):
    # a1 contradicts a3, so it only joins when linked too
    two = group_documents(docs, [("a3", "a2", "same")])
    assert sorted(two.documents_of("a2")) == ["a2", "a3"] and two.documents_of("a1") == ["a1"]
    three = group_documents(docs, [("a3", "a2", "same"), ("a3", "a1", "same")])
    assert sorted(three.documents_of("a1")) == ["a1", "a2", "a3"]
    # links to unknown documents are ignored
    assert len(group_documents(docs, [("a1", "gone", "same")]).people) == 3


def test_a_chain_of_weak_matches_does_not_glue_people():
    # b matches a (e-mail) and c (employer), but a and c contradict each other: c stays apart
    a = document_keys("a", "Jo Lee", {"emails": ["jo@x.org"], "experiences": [{"company": "Initech", "start": "2024"}]})
    b = document_keys("b", "Jo Lee", {"emails": ["jo@x.org"], "experiences": [{"company": "Initech", "start": "2020"},
                                                                           {"company": "Hooli", "start": "2018"}]})
    c = document_keys("c", "Jo Lee", {"emails": ["lee@y.org"], "experiences": [{"company": "Hooli", "start": "2010"}]})
    g = group_documents([a, b, c])
    assert g.documents_of("a") == ["a", "b"] and g.documents_of("c") == ["c"]


def test_newest_date_and_label():
    assert newest_date(ANA_NEW.model_dump()) == "2023-02"
    assert newest_date({"cv_date": "2025-03", "experiences": [{"start": "2020", "is_current": True}]}) == "2025-03"
    assert person_label("Ana Ruiz", ANA_OTHER.model_dump()) == "Ana Ruiz · Nurse · City Hospital"


def test_grouping_10k_documents_is_fast_enough_to_print():
    """Not a timed assertion: prints the figure (benchmarks/grouping.py measures it properly)."""
    docs = []
    for i in range(10_000):
        rec = {"emails": [f"p{i % 9000}@x.org"], "experiences": [{"company": f"Firm {i % 9000 % 700}", "start": "2020"}]}
        docs.append(document_keys(f"d{i}", f"Person {i % 9000} Name", rec))
    started = time.perf_counter()
    g = group_documents(docs)
    print(f"grouped 10,000 documents in {time.perf_counter() - started:.3f} s")
    assert len(g.people) < 10_000 and len(g.by_document) == 10_000
