"""Does the support check (assistant/answer/support.py) accept faithful answers and reject invented ones?

A small generated library (seed 11, 8 British CVs) is imported into a temporary data home.
Each case below cites one real excerpt (picked by candidate and a phrase it contains) with
an answer written by hand before the check was run: 18 faithful paraphrases and 18
answers that attach at least one invented fact (an employer, school, number, skill,
degree level, language or private detail) to that real excerpt. The script prints a table
of accepted / rejected per kind and every wrongly judged case.

    python benchmarks/support_check.py [--home DIR]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

# (question, candidate, phrase the cited chunk contains, answer)
FAITHFUL = [
    ("Who knows Terraform?", "A. Grant", "TECHNICAL SKILLS",
     "A. Grant lists Terraform among technical skills, along with Prometheus and Ansible [E1]."),
    ("Who has a PhD?", "Amy Grant", "PhD in Molecular Biology",
     "Amy Grant holds a PhD in Molecular Biology from the University of Glasgow, completed in 2025 [E1]."),
    ("Which languages does Frank Wilson speak?", "Frank Wilson", "Italian (Fluent)",
     "Frank Wilson speaks English as his mother tongue and is fluent in Italian [E1]."),
    ("Who has supply chain experience?", "Frank Wilson", "Logistics Coordinator with",
     "Frank Wilson is a logistics coordinator with five years of experience in supply chain operations, "
     "strong in SAP, SQL and Excel [E1]."),
    ("Who negotiated with suppliers?", "Frank Wilson", "30 suppliers",
     "At Jarvis Ltd, Frank Wilson negotiated yearly contracts with 30 suppliers [E1]."),
    ("Who used Moodle?", "James Kelly", "I am a Mathematics Teacher",
     "James Kelly is a mathematics teacher who cares about continuous learning, especially Moodle and "
     "Microsoft Office [E1]."),
    ("Where did James Kelly study?", "James Kelly", "University of Nottingham",
     "James Kelly studied Primary Education (BA) at the University of Nottingham from 2018 to 2022 [E1]."),
    ("Who has cardiology skills?", "Terry Wells", "Echocardiography",
     "Terry Wells's technical skills include Cardiology, Echocardiography and Ultrasound [E1]."),
    ("Who supervised junior doctors?", "Terry Wells", "junior doctors",
     "Terry Wells supervised two junior doctors on rotation as a Foundation Doctor at Laurenstad Medical "
     "Center [E1]."),
    ("Who is a product owner with Jira?", "Tracey Lloyd", "10 years of experience",
     "Tracey Lloyd is a Senior Product Owner with 10 years of experience in digital products and a strong "
     "background in Jira [E1]."),
    ("Who aligned engineers around OKRs?", "Tracey Lloyd", "quarterly OKRs",
     "As Senior Product Owner at Godfrey, Davies and Little (Dec 2022 – Aug 2026), Tracey Lloyd aligned 40 "
     "engineers, designers and sales around quarterly OKRs [E1]."),
    ("Who has B2B sales experience?", "Dorothy Warren", "Results-driven",
     "Dorothy Warren is a results-driven Key Account Manager with more than 6 years in retail, focused on "
     "B2B sales [E1]."),
    ("Who uses HubSpot?", "Dorothy Warren", "Cold Calling",
     "Dorothy Warren's skills include HubSpot, CRM and cold calling [E1]."),
    ("Who migrated services to GitHub Actions?", "A. Grant", "zero-downtime",
     "A. Grant migrated eight services to GitHub Actions with zero-downtime deployments and reduced cloud "
     "spend by 48% [E1]."),
    ("Who speaks Italian?", "A. Grant", "Mother tongue, Italian",
     "A. Grant speaks Italian at an intermediate level; English is the mother tongue [E1]."),
    ("Who has a master's in medicine?", "Terry Wells", "Master of Science in Medicine",
     "Terry Wells has a Master of Science in Medicine from the University of Glasgow (2021–2022) and a BSc "
     "in Medicine from Edinburgh [E1]."),
    ("Who works in research?", "Amy Grant", "University of Leonberg",
     "Amy Grant, a doctoral researcher at the University of Leonberg since October 2025, trained 4 new "
     "colleagues [E1]."),
    ("Who has a Scrum certificate?", "Tracey Lloyd", "PSPO I",
     "Tracey Lloyd is certified as a Professional Scrum Product Owner I (PSPO I), obtained in 2025 [E1]."),
]
FABRICATED = [
    ("Who has Kafka experience?", "A. Grant", "TECHNICAL SKILLS",
     "A. Grant has 40 years of Kafka at NASA, a PhD from MIT and a criminal record [E1]."),
    ("Who has a PhD?", "Amy Grant", "PhD in Molecular Biology",
     "Amy Grant holds a PhD in Molecular Biology from Harvard University [E1]."),
    ("Which languages does Frank Wilson speak?", "Frank Wilson", "Italian (Fluent)",
     "Frank Wilson speaks English, Italian and fluent Japanese [E1]."),
    ("Who has supply chain experience?", "Frank Wilson", "Logistics Coordinator with",
     "Frank Wilson has 15 years of experience in supply chain operations [E1]."),
    ("Who negotiated with suppliers?", "Frank Wilson", "30 suppliers",
     "Frank Wilson negotiated annual contracts with 300 suppliers at Amazon [E1]."),
    ("Who used Moodle?", "James Kelly", "I am a Mathematics Teacher",
     "James Kelly is a mathematics teacher who was dismissed for misconduct [E1]."),
    ("Where did James Kelly study?", "James Kelly", "University of Nottingham",
     "James Kelly earned a Master's in Primary Education from the University of Oxford [E1]."),
    ("Who has cardiology skills?", "Terry Wells", "Echocardiography",
     "Terry Wells is a board-certified neurosurgeon skilled in Cardiology [E1]."),
    ("Who supervised junior doctors?", "Terry Wells", "junior doctors",
     "Terry Wells supervised 20 junior doctors at Mayo Clinic [E1]."),
    ("Who is a product owner with Jira?", "Tracey Lloyd", "10 years of experience",
     "Tracey Lloyd has 10 years of experience in digital products and an MBA from INSEAD [E1]."),
    ("Who aligned engineers around OKRs?", "Tracey Lloyd", "quarterly OKRs",
     "Tracey Lloyd aligned 40 engineers around quarterly OKRs at Google from 2010 [E1]."),
    ("Who has B2B sales experience?", "Dorothy Warren", "Results-driven",
     "Dorothy Warren is a Key Account Manager who speaks fluent German and Mandarin [E1]."),
    ("Who uses HubSpot?", "Dorothy Warren", "Cold Calling",
     "Dorothy Warren's skills include HubSpot, Salesforce and SAP [E1]."),
    ("Who migrated services to GitHub Actions?", "A. Grant", "zero-downtime",
     "A. Grant migrated 8 services to Kubernetes and was fired in 2024 [E1]."),
    ("Who speaks Italian?", "A. Grant", "Mother tongue, Italian",
     "A. Grant is married with two children and speaks Italian [E1]."),
    ("Who has a master's in medicine?", "Terry Wells", "Master of Science in Medicine",
     "Terry Wells completed a PhD in Medicine at the University of Glasgow [E1]."),
    ("Who works in research?", "Amy Grant", "University of Leonberg",
     "Amy Grant was a professor at Stanford since 2015 [E1]."),
    ("Who has a Scrum certificate?", "Tracey Lloyd", "PSPO I",
     "Tracey Lloyd is a certified Scrum Master with a PMP certification [E1]."),
]


def library(home: Path):
    """The generated library in ``home`` (generated and imported when it is empty)."""
    os.environ["CVRAG_HOME"] = str(home)
    from cvrag_desktop.app.assembly import App

    svc = App()
    if not svc.people.list_candidates():
        out = home / "generated"
        svc.library.generate(8, 11, out, locale="en_GB")
        svc.library.ingest([out], use_llm=False, workers=1)
    return svc


def evidence_for(svc, name: str, phrase: str) -> dict:
    """The one chunk of ``name``'s CV that contains ``phrase``, as the assistant labels it (E1)."""
    for row in svc.catalog.query("SELECT candidate_id, name FROM candidates WHERE name = ?", (name,)):
        for c in svc.catalog.chunks(row["candidate_id"]):
            if phrase.lower() in " ".join(c.text.split()).lower():
                return {"evidence_id": "E1", "candidate_id": row["candidate_id"], "candidate_name": name,
                        "text": c.text, "section": c.section, "chunk_id": c.chunk_id}
    raise SystemExit(f"no chunk of {name} contains {phrase!r}: the generated library changed")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--home", type=Path, help="data home to (re)use; default: a temporary one")
    args = ap.parse_args()
    home = args.home or Path(tempfile.mkdtemp(prefix="cvrag_support_"))
    svc = library(home)
    from cvrag_desktop.assistant.answer.support import unsupported_claims

    rows, wrong = [], []
    for kind, cases, want_rejected in (("faithful", FAITHFUL, False), ("fabricated", FABRICATED, True)):
        accepted = rejected = 0
        for question, name, phrase, answer in cases:
            ev = evidence_for(svc, name, phrase)
            found = unsupported_claims(answer, ["E1"], {"E1": ev}, question)
            if found:
                rejected += 1
            else:
                accepted += 1
            if bool(found) != want_rejected:
                wrong.append((kind, answer, "; ".join(str(u.missing) for u in found) or "accepted"))
        rows.append((kind, len(cases), accepted, rejected))
    print(f"{'kind':<11} {'cases':>5} {'accepted':>8} {'rejected':>8}")
    for kind, n, a, r in rows:
        print(f"{kind:<11} {n:>5} {a:>8} {r:>8}")
    for kind, answer, why in wrong:
        print(f"WRONG ({kind}): {answer}\n    -> {why}")
    svc.close()


if __name__ == "__main__":
    main()
