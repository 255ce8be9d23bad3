"""What the router decides for a question (:class:`Plan`) and the word tables every reader shares.

The router builds the plan; the question readers (:mod:`.questions`), the typo corrector
(:mod:`.typos`), the LLM steps and the nodes read it. The word tables say which words of a
question are question words (:data:`STOPWORDS`), which make it about the candidate
database (:data:`DOMAIN`), which carry no topic of their own (:data:`GENERIC`) and which
name a field asked about (:data:`FIELD_TERMS`). They sit below the router so that those
readers import them without importing the router, which imports them.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from dataclasses import field as dc_field

from cvrag_desktop.assistant.understand.question import phrases

STOPWORDS = set(["a", "an", "the", "and", "or", "of", "in", "at", "on", "for", "to", "with", "by", "from", "as", "is", "are", "was", "were", "be", "been", "being", "has", "have", "had", "do", "does", "did", "done", "who", "whom", "whose", "which", "what", "when", "where", "why", "how", "many", "much", "any", "all", "every", "each", "me", "us", "i", "you", "your", "we", "our", "their", "her", "his", "she", "he", "they", "them", "it", "its", "this", "that", "these", "those", "there", "here", "can", "could", "would", "should", "will", "shall", "may", "might", "must", "please", "show", "list", "find", "give", "tell", "about", "not", "no", "yes", "than", "then", "also", "only", "just", "more", "most", "less", "least", "some", "other", "others", "one", "two", "both", "either", "get", "got", "know", "knows", "knew", "known", "like", "want", "need", "looking", "look", "someone", "anyone", "somebody", "anybody", "people", "person", "persons", "candidate", "candidates", "cv", "cvs", "resume", "resumes", "profile", "profiles", "applicant", "applicants", "our", "my", "mine", "name", "named", "called", "everyone", "everybody", "total",
                 # instructions, not content: "describe the Docker experience", "what have they done with Figma"
                 "describe", "explain", "summarize", "summarise", "outline", "detail", "details", "used", "use",
                 "uses", "using", "achieve", "achieved", "accomplished"])
# Words that make a question about the candidate database (otherwise it may be out of scope).
DOMAIN = set(["candidate", "candidates", "cv", "cvs", "resume", "resumes", "experience", "experienced", "skill", "skills", "worked", "work", "works", "working", "job", "jobs", "role", "roles", "degree", "degrees", "university", "education", "studied", "study", "hire", "hiring", "developer", "developers", "engineer", "engineers", "manager", "managers", "title", "company", "companies", "employer", "employers", "years", "year", "languages", "language", "speak", "speaks", "speaking", "certification", "certifications", "certified", "profile", "background", "qualified", "applicant", "applicants", "talent", "shortlist", "senior", "junior", "expert", "expertise", "email", "phone", "contact", "live", "lives", "based", "location", "salary", "tenure", "stayed", "career", "who", "knows", "know"])
# Domain words that carry no topic of their own (never required in the evidence); other languages' from data.
GENERIC = set(phrases("generic")) | set(["candidate", "candidates", "cv", "cvs", "resume", "resumes", "experience", "experienced", "skill", "skills", "worked", "work", "works", "working", "who", "knows", "know", "years", "year", "expert", "expertise", "background", "profile", "talent", "hire", "hiring", "qualified", "tenure", "stayed", "applicant", "applicants"])
FIELD_TERMS = {w for w in ["email", "mail", "address", "phone", "telephone", "mobile", "cell", "number", "education", "degree", "degrees", "studied", "studies", "study", "university", "diploma", "qualification", "qualifications", "language", "languages", "speak", "speaks", "speaking", "skill", "skills", "stack", "technologies", "tools", "certification", "certifications", "certified", "certificate", "certificates", "location", "live", "lives", "living", "based", "city", "located", "current", "currently", "now", "today", "present", "employer", "employers", "companies", "company", "worked", "work", "history", "career", "previous", "job", "jobs", "experience", "title", "years", "long"]}


@dataclass
class Plan:
    """What the router decided for one question."""

    route: str = "hybrid"
    filters: dict = dc_field(default_factory=dict)  # SearchFilters fields + "degree_level"
    op: str | None = None  # analytics operation
    candidates: list[str] = dc_field(default_factory=list)  # candidate ids named (or resolved from "she")
    field: str | None = None  # what is asked about a named candidate
    terms: list[str] = dc_field(default_factory=list)  # content words the evidence must contain
    skill: str | None = None  # the skill of "most years with X"
    unknown_name: str | None = None  # a name-like phrase that matches no candidate
    persons: list[str] = dc_field(default_factory=list)  # people named (person ids; see people.py)
    concepts: list[str] = dc_field(default_factory=list)  # concept ids asked about (resources/concepts.yaml)
    intent: dict = dc_field(default_factory=dict)  # computed relation / comparison / aggregate and its arguments
    identifying: list[str] = dc_field(default_factory=list)  # employers written only to tell namesakes apart

    def to_dict(self) -> dict:
        """Plain-data form (stored in the graph state)."""
        return asdict(self)
