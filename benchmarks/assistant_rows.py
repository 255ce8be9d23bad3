"""Five more question groups for ``assistant.py``: typo, follow-up, credential, gap, foreign.

Every question and its expectation is built from the factory's ground-truth JSON (never from a
real CV), deterministically from the seed, and asked through ``AssistantService.ask`` without
the LLM. The phrasings were written before any answer was seen and are not tuned to the answers.
Candidate sets are compared by person (ground-truth ``person_id``): an answer may list one CV file
of a person who has two.

- typo: "who knows Pyhton?" — one adjacent swap or one dropped letter in a skill / language name
  of at least 5 letters; expected the untypo'd filter's candidate set (or its people count);
- follow-up: "Who worked at {company}?" then, on the same thread, "Which of them know {skill}?";
  expected for turn 2: worked there AND holds the skill (non-empty, smaller than turn 1);
- credential: "Who has a {x} certificate?" with x an acronym, a vendor or the certificate's name;
- gap: "Does {name} have any gaps of 6 months or more between jobs?" (the gap count, or "no gap")
  and "Who has a gap of more than 12 months between roles?" (candidate set over evaluable CVs; also
  more than 6 months, since the generated gaps are short);
- foreign: German, Spanish, French and Polish e-mail / languages / current employer / counts /
  "who worked at" questions, expected as in the English rows.
"""

from __future__ import annotations

import datetime as dt
import itertools
import json
import random
import re
from collections import Counter

from assistant import gt_matches, people
from handwritten import Names, fold, months

Q = dict[str, object]
TYPO_T = {"skill": ["who knows {x}?", "Which candidates have {x} experience?", "anyone with {x}?"],
          "skill_n": ["how many candidates know {x}?", "How many people have {x} on their CV?"],
          "lang": ["Who speaks {x}?", "which candidates speak {x}?"],
          "lang_n": ["how many candidates speak {x}?"]}
FOLLOW_T = {"skills": ["Which of them know {x}?", "Of those, who has {x}?"],
            "languages": ["and which of them speak {x}?", "which of these speak {x}?"]}
CRED_T = {"acronym": ["Who has {a} {x} certificate?", "Which candidates are certified in {x}?", "how many candidates hold {x}?",
                      "Who holds {a} {x} certification?"],
          "vendor": ["Who has {a} {x} certificate?", "Who holds {a} {x} certification?",
                     "how many candidates hold {a} {x} certification?"],
          "name": ["Who has {a} {x} certificate?", "Which candidates are certified in {x}?", "how many candidates hold {x}?",
                   "Who holds {a} {x} certification?"],
          "full": ["Who has the {x}?", "how many candidates have the {x}?"]}
GAP_ONE = ["Does {n} have any gaps of 6 months or more between jobs?",
           "Are there any gaps of at least 6 months in {n}'s work history?",
           "Has {n} had a break of 6+ months between roles?"]
GAP_ALL = {12: ["Who has a gap of more than 12 months between roles?",
                "Which candidates have a gap of over a year between jobs?",
                "Who had more than 12 months between two jobs?"],
           6: ["Who has a gap of more than 6 months between jobs?", "Which candidates were out of work for over half a year between roles?"]}
FOREIGN_T = {
    "de": {"email": "Wie lautet die E-Mail-Adresse von {n}?", "langs": "Welche Sprachen spricht {n}?",
           "current": "Wo arbeitet {n} derzeit?", "lang_n": "Wie viele Kandidaten sprechen {x}?",
           "skill_n": "Wie viele Kandidaten haben Erfahrung mit {x}?", "worked": "Wer hat bei {x} gearbeitet?"},
    "es": {"email": "¿Cuál es el correo electrónico de {n}?", "langs": "¿Qué idiomas habla {n}?",
           "current": "¿Dónde trabaja {n} actualmente?", "lang_n": "¿Cuántos candidatos hablan {x}?",
           "skill_n": "¿Cuántos candidatos tienen experiencia con {x}?", "worked": "¿Quién trabajó en {x}?"},
    "fr": {"email": "Quelle est l'adresse e-mail de {n} ?", "langs": "Quelles langues parle {n} ?",
           "current": "Où travaille {n} actuellement ?", "lang_n": "Combien de candidats parlent {x} ?",
           "skill_n": "Combien de candidats maîtrisent {x} ?", "worked": "Qui a travaillé chez {x} ?"},
    "pl": {"email": "Podaj adres e-mail kandydata {n}.", "langs": "Jakie języki zna {n}?",
           "current": "Gdzie obecnie pracuje {n}?", "lang_n": "Ilu kandydatów mówi {x}?",
           "skill_n": "Ile osób zna {x}?", "worked": "Kto pracował w {x}?"}}
# language names: German, Spanish, French (as an object of "parler"), Polish ("mówi po …") and the Polish noun
LANG_NAMES = {
    "English": ("Englisch", "inglés", "anglais", "po angielsku", "angielski"),
    "German": ("Deutsch", "alemán", "allemand", "po niemiecku", "niemiecki"),
    "French": ("Französisch", "francés", "français", "po francusku", "francuski"),
    "Spanish": ("Spanisch", "español", "espagnol", "po hiszpańsku", "hiszpański"),
    "Italian": ("Italienisch", "italiano", "italien", "po włosku", "włoski"),
    "Portuguese": ("Portugiesisch", "portugués", "portugais", "po portugalsku", "portugalski"),
    "Dutch": ("Niederländisch", "neerlandés", "néerlandais", "po niderlandzku", "niderlandzki"),
    "Polish": ("Polnisch", "polaco", "polonais", "po polsku", "polski"),
    "Catalan": ("Katalanisch", "catalán", "catalan", "po katalońsku", "kataloński"),
    "Chinese": ("Chinesisch", "chino", "chinois", "po chińsku", "chiński"),
    "Japanese": ("Japanisch", "japonés", "japonais", "po japońsku", "japoński"),
    "Russian": ("Russisch", "ruso", "russe", "po rosyjsku", "rosyjski")}
LANG_IDX = {"de": 0, "es": 1, "fr": 2, "pl": 3}
GENERIC = {"certified", "certificate", "certification", "professional", "associate", "advanced", "level", "foundation",
           "specialist", "specialty", "developer", "engineer", "administrator", "tester", "user", "the", "in", "of",
           "and", "with", "for", "accreditation", "specialization", "chartered", "postgraduate"}


def typo(word: str, rng: random.Random) -> str | None:
    """One realistic typo in the longest word of a name of at least 5 letters (swap two adjacent, or drop one)."""
    if sum(ch.isalpha() for ch in word) < 5:
        return None
    parts = word.split(" ")
    k = max(range(len(parts)), key=lambda i: len(parts[i]))
    w = parts[k]
    swaps = [i for i in range(1, len(w) - 1) if w[i].isalpha() and w[i + 1].isalpha() and w[i].lower() != w[i + 1].lower()]
    drops = [i for i in range(1, len(w)) if w[i].isalpha()]
    if len(w) < 4 or not (swaps or drops):
        return None
    if swaps and (not drops or rng.random() < 0.5):
        i = rng.choice(swaps)
        w = w[:i] + w[i + 1] + w[i] + w[i + 2:]
    else:
        i = rng.choice(drops)
        w = w[:i] + w[i + 1:]
    parts[k] = w
    return " ".join(parts)


def _ids(truth: dict[str, dict], f: dict, today: dt.date) -> list[str]:
    return sorted(c for c in truth if gt_matches(truth[c], f, today))


def _mid_skills(truth: dict[str, dict]) -> list[str]:
    from cvrag_desktop.text.vocab.skills import canonical_skill

    count = Counter(canonical_skill(s) for t in truth.values() for s in t["skills"] if canonical_skill(s))
    return sorted(s for s, c in count.items() if 2 <= c <= max(3, len(truth) // 4))


def build_typo(truth: dict[str, dict], rng: random.Random, today: dt.date) -> list[Q]:
    """Filter and count questions with one typo in the skill or language name."""
    from cvrag_desktop.text.vocab.languages import canonical_language
    from cvrag_desktop.text.vocab.skills import canonical_skill

    langs = sorted({x for t in truth.values() for x in t["languages"]} - {"English"})
    out: list[Q] = []
    for kind, pool, k in (("skill", _mid_skills(truth), 12), ("skill_n", _mid_skills(truth), 6), ("lang", langs, 6),
                          ("lang_n", langs, 5)):
        for name in rng.sample(pool, min(k, len(pool))):
            bad = typo(name, rng)
            same = canonical_skill if kind.startswith("skill") else canonical_language
            if not bad or same(bad) not in (None, same(name)) or canonical_skill(bad) not in (None, canonical_skill(name)):
                continue  # no typo possible, or the typo is another skill / language
            f = {"skills" if kind.startswith("skill") else "languages": [name]}
            q: Q = {"cat": "typo", "kind": kind, "q": rng.choice(TYPO_T[kind]).format(x=bad), "of": name}
            exp = _ids(truth, f, today)
            out.append({**q, "expect_count": people(truth, exp)} if kind.endswith("_n") else {**q, "expect_ids": exp})
    return out


def build_follow_up(truth: dict[str, dict], rng: random.Random, today: dt.date) -> list[Q]:
    """Two turns on one thread: who worked at a company, then which of them know a skill / speak a language."""
    from cvrag_desktop.text.vocab.skills import canonical_skill

    comps = sorted({e["company"] for t in truth.values() for e in t["experiences"] if e["company"]})
    pairs = []
    for c in comps:
        first = _ids(truth, {"companies": [c]}, today)
        if people(truth, first) < 2:
            continue
        held = sorted({("skills", canonical_skill(s)) for cid in first for s in truth[cid]["skills"] if canonical_skill(s)} |
                      {("languages", x) for cid in first for x in truth[cid]["languages"]})
        for key, v in held:
            second = _ids(truth, {"companies": [c], key: [v]}, today)
            if 0 < len(second) < len(first):
                pairs.append((c, key, v, first, second))
    out: list[Q] = []
    by_comp: dict[str, list] = {}
    for p in pairs:
        by_comp.setdefault(p[0], []).append(p)
    for comp in rng.sample(sorted(by_comp), len(by_comp)):  # at most two per company, spread over companies
        for c, key, v, first, second in rng.sample(by_comp[comp], min(2, len(by_comp[comp]))):
            out.append({"cat": "follow-up", "kind": key, "q0": f"Who worked at {c}?", "first_ids": first,
                        "q": rng.choice(FOLLOW_T[key]).format(x=v), "expect_ids": second})
    return out[:30]


def cert_terms(certs: list[str]) -> list[tuple[str, str]]:
    """Distinctive words of certificates, with their type: an acronym (``(ACLS)``, ``PMP``), a vendor named first
    on two or more certificates (``Google``), else the certificate's name (``full`` when it still says certificate)."""
    firsts = Counter(c.split()[0] for c in set(certs))
    out = []
    for c in sorted(set(certs)):
        acro = re.findall(r"\(([A-Z][A-Z0-9-]{1,7})\)", c) or [w for w in re.findall(r"[A-Za-z0-9-]+", c)
                                                               if re.fullmatch(r"[A-Z][A-Z0-9]{1,6}(-[A-Z]{1,3})?", w)]
        if acro:
            out.append((acro[0], "acronym"))
        if firsts[c.split()[0]] >= 2 and c.split()[0].lower() not in GENERIC:
            out.append((c.split()[0], "vendor"))
        if not acro:
            name = re.sub(r"\s*\(.*?\)", "", c)
            name = re.sub(r"^certified\s+|\s+(professional\s+)?(certificate|certification|accreditation|specialization)$",
                          "", name, flags=re.I)
            out.append((name, "full" if "certif" in name.lower() else "name"))
    return sorted(set(out))


def article(x: str, kind: str) -> str:
    """'a' or 'an' before a certificate term (an acronym by its first letter's sound)."""
    return "an" if x[0] in ("AEFHILMNORSX" if kind == "acronym" else "AEIOUaeiou") else "a"


def build_credential(truth: dict[str, dict], rng: random.Random, today: dt.date) -> list[Q]:
    """Who holds a certificate (by a distinctive word of it), and how many people do."""
    terms = cert_terms([c for t in truth.values() for c in t["certifications"]])
    out: list[Q] = []
    for x, kind in rng.sample(terms, min(30, len(terms))):
        exp = sorted(c for c, t in truth.items() if any(fold(x) in fold(z) for z in t["certifications"]))
        tpl = rng.choice(CRED_T[kind])
        q: Q = {"cat": "credential", "kind": "count" if tpl.startswith("how many") else "who",
                "q": tpl.format(x=x, a=article(x, kind))}
        out.append({**q, "expect_count": people(truth, exp)} if q["kind"] == "count" else {**q, "expect_ids": exp})
    return out


def gaps(rec: dict) -> list[int] | None:
    """Gaps in whole months between merged stretches of dated roles; None when a role is undated or ambiguous."""
    spans = []
    for r in rec["experiences"]:
        start, end = r.get("start") or "", r.get("end") or (rec.get("as_of", "")[:7] if r["is_current"] else "")
        if len(start) != 7 or len(end) != 7 or months(start)[0] > months(end)[0]:
            return None
        spans.append((months(start)[0], months(end)[0]))
    merged: list[list[int]] = []
    for s, e in sorted(spans):
        if merged and s <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], e)
        else:
            merged.append([s, e])
    return [g for (_, e), (s, _) in itertools.pairwise(merged) if (g := s - e - 1) > 0]


def build_gap(truth: dict[str, dict], rng: random.Random, today: dt.date) -> list[Q]:
    """Per-person gap questions (threshold 6 months) and everyone questions (more than 12 / 6 months)."""
    names = Names(truth)
    g = {c: gaps(t) for c, t in truth.items()}
    usable = [c for c in names.unique if g[c] is not None and len(truth[c]["experiences"]) >= 2]
    with_gap = [c for c in usable if any(x >= 6 for x in g[c])]
    without = [c for c in usable if not any(x >= 6 for x in g[c])]
    out: list[Q] = []
    for cid in rng.sample(with_gap, min(12, len(with_gap))) + rng.sample(without, min(12, len(without))):
        big = [x for x in g[cid] if x >= 6]
        out.append({"cat": "gap", "kind": "person", "q": rng.choice(GAP_ONE).format(n=truth[cid]["name"]),
                    "expect_gaps": big})
    evaluable = sorted(c for c in truth if g[c] is not None)
    for limit, tpls in GAP_ALL.items():
        for tpl in tpls:
            out.append({"cat": "gap", "kind": f"all>{limit}", "q": tpl, "evaluable": evaluable,
                        "expect_ids": [c for c in evaluable if any(x > limit for x in g[c])]})
    return out


def build_foreign(truth: dict[str, dict], rng: random.Random, today: dt.date) -> list[Q]:
    """German, Spanish, French and Polish questions of kinds the English templates have."""
    names = Names(truth)
    langs = sorted({x for t in truth.values() for x in t["languages"]} & set(LANG_NAMES))
    comps = sorted({e["company"] for t in truth.values() for e in t["experiences"] if e["company"]})
    skills = _mid_skills(truth)
    out: list[Q] = []
    for lang, T in FOREIGN_T.items():
        i = LANG_IDX[lang]
        for cid in rng.sample(names.unique, 5):
            t = truth[cid]
            kind = rng.choice(["email", "langs", "current"])
            expect = {"email": [[e] for e in t["emails"][:1]], "current": [[t["current_company"]]] if t["current_company"] else [],
                      "langs": [[x, LANG_NAMES[x][4 if lang == "pl" else i]] if x in LANG_NAMES else [x]
                                for x in t["languages"]]}[kind]
            if expect:  # each inner list: any one of its forms must appear
                out.append({"cat": "foreign", "kind": f"{lang}-{kind}", "q": T[kind].format(n=t["name"]), "expect_any": expect})
        x = rng.choice(langs)
        out.append({"cat": "foreign", "kind": f"{lang}-lang_n", "q": T["lang_n"].format(x=LANG_NAMES[x][i]),
                    "expect_count": people(truth, _ids(truth, {"languages": [x]}, today))})
        s = rng.choice(skills)
        out.append({"cat": "foreign", "kind": f"{lang}-skill_n", "q": T["skill_n"].format(x=s),
                    "expect_count": people(truth, _ids(truth, {"skills": [s]}, today))})
        c = rng.choice(comps)
        out.append({"cat": "foreign", "kind": f"{lang}-worked", "q": T["worked"].format(x=c),
                    "expect_ids": _ids(truth, {"companies": [c]}, today)})
    return out


def build_rows(truth: dict[str, dict], rng: random.Random, today: dt.date) -> list[Q]:
    """All five groups, in print order."""
    return [q for make in (build_typo, build_follow_up, build_credential, build_gap, build_foreign)
            for q in make(truth, rng, today)]


NUM = {"one": 1, "a": 1, "an": 1, "two": 2, "three": 3, "four": 4, "five": 5}


def score_gap_person(q: Q, answer: str) -> bool:
    """A gap answer is right when it says 'no gap' for none, or names the gap count with months for some."""
    text = answer.lower()
    says_none = bool(re.search(r"\bno\b(?:\s+[\w-]+){0,3}\s+gaps?\b|\bwithout (?:any )?gaps?\b|\bnot? (?:have )?any gaps?\b", text))
    if not q["expect_gaps"]:
        return says_none
    counts = [int(m) if m.isdigit() else NUM[m] for m in re.findall(r"\b(\d+|one|two|three|four|five|a|an)\s+"
                                                                    r"(?:[\w-]+\s+){0,3}?gaps?\b", text)]
    return not says_none and bool(re.search(r"\d+\s*months?", text)) and len(q["expect_gaps"]) in counts


def score(q: Q, r: dict, truth: dict[str, dict]) -> dict:
    """ok, and for set questions tp / fp / fn, of one answer; sets are of people (one CV file per person will do)."""
    def who(ids) -> set[str]:
        return {truth[c].get("person_id") or c if c in truth else c for c in ids}

    got = set(r.get("matches") or [c["candidate_id"] for c in r["citations"]])
    if "expect_count" in q:
        return {"ok": (r.get("data") or {}).get("count") == q["expect_count"]}
    if "expect_any" in q:
        ans = fold(r["answer"])
        return {"ok": r["status"] == "answered" and all(any(fold(v) in ans for v in alts) for alts in q["expect_any"])}
    if "expect_gaps" in q:
        return {"ok": r["status"] == "answered" and score_gap_person(q, r["answer"])}
    if "evaluable" in q:
        got &= set(q["evaluable"])
    got, exp = who(got), who(q["expect_ids"])
    return {"ok": got == exp, "tp": len(got & exp), "fp": len(got - exp), "fn": len(exp - got)}


def run_rows(questions: list[Q], truth: dict[str, dict], use_llm: bool = False) -> list[dict]:
    """Ask every question (a follow-up's first turn on the same thread first); one scored row each."""
    from cvrag_desktop.app.assembly import App
    from cvrag_desktop.assistant.service import AssistantService
    from cvrag_desktop.index.service import SearchService

    svc = App()
    search = SearchService(svc.catalog, svc.paths, svc.settings)
    asst = AssistantService(svc.catalog, search, svc.paths, svc.settings)
    rows = []
    for q in questions:
        thread, first = None, None
        if "q0" in q:
            first = asst.ask(q["q0"], use_llm=use_llm)
            thread = first["thread_id"]
        r = asst.ask(q["q"], thread_id=thread, use_llm=use_llm)
        row = {"cat": q["cat"], "kind": q["kind"], "q": q["q"], **score(q, r, truth), "status": r["status"], "route": r["route"],
               "answer": r["answer"][:220], "count": (r.get("data") or {}).get("count"),
               "expected": {k: q[k] for k in ("expect_count", "expect_gaps", "expect_any", "of") if k in q}}
        if first is not None:
            row["q0"] = q["q0"]
            row["first_ok"] = score({"expect_ids": q["first_ids"]}, first, truth)["ok"]
        rows.append(row)
    asst.close()
    search.close()
    svc.close()
    return rows


def print_rows(label: str, rows: list[dict], limit: int = 8) -> None:
    """One table per group (n, ok, share; precision / recall where a candidate set is scored), then misses."""
    print(f"\n## {label}\n")
    print(f"{'group':<12}{'kind':<14}{'n':>5}{'ok':>5}{'share':>8}{'P (micro)':>11}{'R (micro)':>11}")
    for cat in dict.fromkeys(r["cat"] for r in rows):
        sub = [r for r in rows if r["cat"] == cat]
        kinds = dict.fromkeys(r["kind"] for r in sub)
        for kind in [*kinds, "all"] if len(kinds) > 1 else ["all"]:
            ks = [r for r in sub if kind in (r["kind"], "all")]
            tp, fp, fn = (sum(r.get(k, 0) for r in ks) for k in ("tp", "fp", "fn"))
            pr = (f"{tp / max(1, tp + fp):>11.3f}{tp / max(1, tp + fn):>11.3f}" if any("tp" in r for r in ks) else "")
            ok = sum(r["ok"] for r in ks)
            print(f"{cat if kind == 'all' else '':<12}{kind:<14}{len(ks):>5}{ok:>5}{ok / max(1, len(ks)):>8.0%}{pr}")
        if cat == "follow-up":
            print(f"{'':<12}{'(turn 1 ok)':<14}{len(sub):>5}{sum(r['first_ok'] for r in sub):>5}")
    for cat in dict.fromkeys(r["cat"] for r in rows):
        fails = [r for r in rows if r["cat"] == cat and not r["ok"]]
        if fails:
            print(f"\n{cat} misses ({len(fails)}):")
        for r in fails[:limit]:
            keep = {k: r[k] for k in ("q0", "q", "status", "route", "count", "tp", "fp", "fn", "expected", "answer") if k in r}
            print("  -", json.dumps(keep, ensure_ascii=False)[:400])
