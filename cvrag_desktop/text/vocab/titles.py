"""Job titles: how senior a title reads, and the words a question uses for a seniority.

The job-title words that make a CV line a title are the lexicon's (``title_words`` of
``resources/lexicon.yaml``, :mod:`.lexicon`); here are the ranks a comparison orders people
by ("chief" … "junior") and the plural words a follow-up means a title by ("only the
seniors", "nur die Senioren").
"""

from __future__ import annotations

import re

from cvrag_desktop.text.fold import fold

# title words by rank, the first that matches decides (5 executive/founder … 0 junior/intern; else 1)
TITLE_RANKS = ((5, r"chief|cto|ceo|cfo|coo|cio|founder|co-founder|vice president|vp|partner|owner|president"),
               (4, r"director|head|principal|leiter\w*|direktor\w*|jefe|directeur|diretor\w*|direttore"),
               (3, r"lead|manager|staff|architect|team lead|teamleiter\w*|gerente|responsable|gestor"),
               (2, r"senior|sr"),
               (1, r"engineer|developer|scientist|analyst|consultant|specialist|designer|researcher|entwickler\w*"),
               (0, r"junior|intern|internship|trainee|praktikant\w*|student|assistant|becario|stagiaire|estagiario"))
# "only the seniors", "nur die Senioren", "tylko seniorzy": a seniority word is a current-title filter
SENIORITY_WORDS = (("Senior", re.compile(r"^(seniors?|senioren|seniorzy|seniores|séniors?|seniori|starsi|starszych)$", re.I)),
                   ("Junior", re.compile(r"^(juniors?|junioren|juniorzy|juniores|juniori|młodsi|mlodsi|młodszych)$", re.I)),
                   ("Lead", re.compile(r"^(leads?)$", re.I)), ("Principal", re.compile(r"^(principals?)$", re.I)))


def title_rank(title: str) -> int:
    """How senior a job title reads (0 junior/intern … 5 executive/founder)."""
    t = fold(title)
    for rank, words in TITLE_RANKS:
        if re.search(r"(?<!\w)(" + words + r")(?!\w)", t):
            return rank
    return 1
