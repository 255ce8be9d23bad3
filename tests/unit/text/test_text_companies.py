"""Employer cores: the legal form is not part of who the employer is."""

from __future__ import annotations

from cvrag_desktop.assistant.understand import vocabulary
from cvrag_desktop.text.companies import company_core, employer_key
from cvrag_desktop.text.keys import text_key


def test_company_core_drops_trailing_legal_forms_only():
    assert company_core("acme logistics sa") == "acme logistics"
    assert company_core("initech gmbh co kg") == "initech"
    assert company_core("company") == "company"  # never empties a name
    assert company_core("sa acme") == "sa acme"  # only trailing words


def test_catalog_and_assistant_share_the_core():
    """The person grouping and the question vocabulary read one function."""
    assert vocabulary.company_core is company_core
    assert employer_key("Acme Logistics, S.A.") == employer_key("ACME logistics") == "acmelogistics"
    assert company_core(text_key("Globex Corp.")) == "globex"
