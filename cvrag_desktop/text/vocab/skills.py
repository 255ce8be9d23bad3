"""Skills: the alias table's canonical names, the skills that are ordinary words, and the skill key.

"k8s", "Kubernetes" and "kubernetes" are one skill to a filter, a facet, a chat count and a
job match, because all of them compare :func:`skill_key`. The alias table is
``resources/skill_aliases.yaml`` (read by :mod:`.lexicon`).
"""

from __future__ import annotations

from cvrag_desktop.text.keys import normalize_key
from cvrag_desktop.text.vocab.lexicon import load_lexicon

# canonical skills that are ordinary words: only trusted inside a skills section
AMBIGUOUS_SKILLS = {"go", "r", "c", "rust", "swift", "dart", "chef", "puppet", "unity", "excel", "spring",
                    "express", "meteor", "lean", "tax", "audit", "security", "communication", "leadership",
                    "networking", "forecasting", "budgeting", "payroll", "triage", "sketch", "figma"}


def canonical_skill(value: str) -> str | None:
    """The canonical name of a known skill or alias, else None ("React-Native" = "React Native")."""
    aliases = load_lexicon().skill_aliases
    key = normalize_key(value)
    return aliases.get(key) or (aliases.get(key.replace("-", " ")) if "-" in key else None)


def skill_key(value: str) -> str:
    """Comparison key of a skill: its canonical name (alias table) normalised."""
    return normalize_key(canonical_skill(value) or value)
