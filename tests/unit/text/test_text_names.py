"""Person-name keys: titles, post-nominals, possessives and CJK spacing are not the name."""

from __future__ import annotations

from cvrag_desktop.text.names import mention_key, name_key


def test_name_key_drops_titles_and_post_nominals():
    assert name_key("Dr. Anna Überlin, M.Sc.") == "anna uberlin"
    assert name_key("Prof. Dr. Jan de Vries PhD") == "jan de vries"
    assert name_key("山田　花代") == "山田花代"
    assert name_key("") == ""


def test_mention_key_drops_possessives_only():
    assert mention_key("What is Ana's phone?") == "what is ana phone"
    assert mention_key("Dr. Charles' CV") == "dr charles cv"
