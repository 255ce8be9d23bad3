"""Person names as comparison keys: honorific titles, post-nominals and possessives are not the name.

"Dr. Anna Überlin, M.Sc." and "anna uberlin" are one person to the catalog's grouping, to
the assistant's people index and to a question that names her ("Anna Überlin's phone").
:func:`name_key` is the key of a printed name; :func:`mention_key` the key of a question's
text, where only possessives are dropped (its titles and degrees are words of the question).
"""

from __future__ import annotations

import re

from cvrag_desktop.text.keys import text_key

TITLES = {"dr", "prof", "professor", "mr", "mrs", "ms", "miss", "mx", "sir", "dame", "herr", "frau", "dipl", "ing",
          "sr", "sra", "srta", "don", "dona", "m", "mme", "mlle", "sig", "dott", "eng", "rer", "nat", "med", "vet",
          "habil", "phil"}
POST_NOMINALS = {"phd", "msc", "bsc", "ma", "ba", "mba", "meng", "beng", "md", "jd", "cpa", "pmp", "cfa", "mphil",
                 "dphil", "llm", "llb", "bs", "ms", "mres", "dds", "rn", "pe", "jr", "sr", "ii", "iii", "iv", "bcs",
                 "mcs", "dipl-ing", "frcs", "acca", "cissp"}
CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]")  # a CJK name has no reliable spacing
POSSESSIVE = re.compile(r"(?<=\w)['’`´]s\b|(?<=[sxz])['’]", re.I)


def name_key(name: str) -> str:
    """A person's name as a comparison key: no titles, post-nominals, dots, case or accents.

    "Dr. Anna Überlin, M.Sc." → "anna uberlin"; "山田　花代" → "山田花代" (CJK names have no
    reliable spacing, so their key has none).
    """
    s = POSSESSIVE.sub("", name or "")
    s = re.sub(r"(?<=\b[A-Za-z])\.(?=[A-Za-z]\.)", "", s)  # "M.Sc." → "MSc."
    words = text_key(s).split()
    while words and words[0] in TITLES:
        words.pop(0)
    while words and (words[-1] in POST_NOMINALS or words[-1] in TITLES):
        words.pop()
    key = " ".join(words)
    if CJK.search(key):
        key = key.replace(" ", "")
    return key


def mention_key(question: str) -> str:
    """A question's text as a key to find names in: possessives dropped ("Ana's" → "ana"), then :func:`text_key`."""
    return text_key(POSSESSIVE.sub("", question))
