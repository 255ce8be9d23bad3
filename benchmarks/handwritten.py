"""Hand-written recruiter questions over the generated ground truth, kept apart from the template set.

The template questions of ``assistant.py`` ("What is {name}'s email address?") are few and fixed,
so the assistant can fit them. These are paraphrases the way recruiters type: lowercase surnames,
first names only, possessives, "any certs?", "where's X based". Expected values come from the
ground-truth JSON; a case is skipped when its answer would be ambiguous (overlapping or unordered
roles, an employer the person had twice, ties, missing dates, namesakes, people with two CV files).
"""

from __future__ import annotations

import datetime as dt
import itertools
import json
import random
import re
from collections import Counter

Q = dict[str, object]
# trailing legal forms a recruiter leaves out ("Grupo Espinosa S.A." → "Grupo Espinosa")
LEGAL = re.compile(r"(s\.?a\.?|s\.?l\.?(n\.?e\.?)?|inc\.?|ltd\.?|llc|plc|gmbh|ag|kg|kgaa|ohg|gbr|mbh|co\.?|&|-|me|ei|"
                   r"s/a|ltda\.?|sarl|s\.a\.r\.l\.|s\.?r\.?l\.?|s\.?p\.?a\.?|s\.com\.|s\.coop\.|s\.c\.p|s\.a\.t\.|sas),?")
COMMON = {"will", "may", "mark", "grace", "joy", "rose", "hope", "page", "price", "young", "king", "long", "white",
          "green", "brown", "black", "le", "la", "de", "da", "del", "van", "von", "dos", "das", "di", "paz", "cruz"}
LEVEL_WORDS = {"master": ["master's", "master's degree", "masters"], "phd": ["PhD", "doctorate"],
               "bachelor": ["bachelor's", "bachelor's degree", "undergraduate degree"]}
# Several hand-written phrasings per intent, one intent a line: {n} a name form, {p} its possessive.
PHRASINGS = """
before     | Where did {n} work before joining {y}? | What was {p} employer prior to {y}? | Before {y}, where was {n} working? | who did {n} work for before {y}
after      | Where did {n} go after {y}? | What did {n} do after leaving {y}? | {p} next employer after {y}? | Where did {n} move on to after {y}?
role_at    | What did {n} do at {y}? | What was {p} role at {y}? | what position did {n} hold at {y} | {n} at {y} - what was the job?
first      | What was {p} first job? | Where did {n} start their career? | What's the earliest role on {p} CV? | {p} first employer?
latest     | What's {p} most recent role? | What was {p} last job? | {n} - latest position? | what's the newest job on {p} cv
degree     | Which university gave {n} their {lvl}? | Where did {n} do their {lvl}? | Where did {n} get the {lvl} from? | {p} {lvl}: which school?
email      | what's {p} email? | email for {n}? | How do I reach {n} by e-mail? | can you give me {p} mail address
phone      | {p} phone number? | mobile number for {n}? | Do we have a phone number for {n}? | what's the best phone to call {n} on
location   | where's {n} based? | Where does {n} live? | which city is {n} in? | {p} location?
certs      | any certs for {n}? | Is {n} certified in anything? | What certifications does {n} hold? | Does {n} have any professional certifications?
langs      | Which languages can {n} work in? | {p} languages? | what languages is {n} fluent in? | Does {n} speak any foreign languages?
current    | who's {n} working for these days? | Where is {n} employed right now? | {p} current employer? | which company is {n} at now?
cmp2       | Who has more experience, {a} or {b}? | Between {a} and {b}, who's been working longer? | {a} vs {b} - who has more years in the industry? | Does {a} have more years of experience than {b}?
cmp3       | Rank {a}, {b} and {c} by years of experience | Of {a}, {b} and {c}, who has the most experience? | Sort {a}, {b} and {c} by total years worked | order {a}, {b}, {c} by experience, longest first
cur_start  | Whose current job started earliest? | Which candidate has been in their current role the longest? | Who has been at their current employer the longest? | Who started their current position first?
grad_early | Who graduated earliest? | Which candidate finished their degree first? | Who got their degree the longest time ago? | Who's the earliest graduate in the pool?
grad_late  | Who graduated most recently? | Who's the most recent graduate? | Which candidate finished their studies last? | Who is the freshest graduate we have?
most_emp   | Who has worked for the most different employers? | Who has been at the most companies? | Which candidate has had the most employers? | Biggest job hopper: who's worked at the most firms?
shared     | Have any candidates worked at the same company? | Did any two candidates work for the same employer? | Are there people in the pool who share a former employer? | Which employers show up on more than one CV?
count      | how many people in the pool know {s}? | How many of our candidates have {s} on their CV? | number of applicants with {s} experience? | {s}: how many candidates have it?
unknown    | Is {n} married? | What's {n} expecting to earn? | Can {n} start right away? | Does {n} need a work permit? | What's {p} notice period? | How old is {n}? | Would {n} need visa sponsorship? | What's {p} current salary?
"""
T = {k.strip(): v for k, *v in (line.split(" | ") for line in PHRASINGS.strip().splitlines())}
NOT_IN_LIBRARY = [("Where is Priya Raghunathan based?", "Priya Raghunathan"),
                  ("What's Olumide Adeyemi-Vance's email?", "Olumide Adeyemi-Vance"),
                  ("What did Bartholomew Quist do before his current job?", "Bartholomew Quist")]


def fold(s: str | None) -> str:
    """Case-, accent- and punctuation-folded text, padded for word-boundary containment."""
    from cvrag_desktop.text.keys import text_key

    return f" {text_key(s or '')} "


def short_company(c: str) -> str:
    """An employer as a recruiter types it: without the trailing legal form (unless that leaves too little)."""
    words = c.split()
    while len(words) > 1 and LEGAL.fullmatch(words[-1].lower()):
        words.pop()
    short = " ".join(words).rstrip(" ,-&")
    return short if len(fold(short).replace(" ", "")) >= 4 else c


def ckey(c: str | None) -> str:
    """Employer key: folded short form, no spaces."""
    return fold(short_company(c or "")).replace(" ", "")


def months(d: str | None) -> tuple[int, int] | None:
    """A partial date as a month range, first and last month (a year-only date covers the whole year)."""
    if not d:
        return None
    y, m = int(d[:4]), (int(d[5:7]) if len(d) >= 7 else None)
    return (y * 12 + (m or 1), y * 12 + (m or 12))


def clean_history(rec: dict) -> list[dict] | None:
    """Roles oldest first when their order is unambiguous and no two overlap (only the last may be current)."""
    roles = rec["experiences"]
    if not roles or any(not (r.get("company") and months(r.get("start"))) for r in roles):
        return None
    roles = sorted(roles, key=lambda r: months(r["start"]))
    for a, b in itertools.pairwise(roles):
        end, start = months(a.get("end")), months(b["start"])
        if a["is_current"] or not end or months(a["start"])[1] >= start[0] or end[0] > start[1]:
            return None
    return roles


class Names:
    """Name forms a recruiter types, each used only where it picks out one person of the pool."""

    def __init__(self, truth: dict[str, dict]) -> None:
        from cvrag_desktop.text.vocab.languages import canonical_language
        from cvrag_desktop.text.vocab.skills import canonical_skill

        self.truth = truth
        files = Counter(t["person_id"] for t in truth.values())
        keys = Counter(fold(t["name"]) for t in truth.values())
        tokens = Counter(w for k in keys for w in k.split())
        other = {w for t in truth.values() for v in [t.get("location"), *(e["company"] for e in t["experiences"]),
                                                     *(e.get("institution") for e in t["education"])]
                 for w in fold(v).split()}
        self.single = {w for w, k in tokens.items() if k == 1 and len(w) >= 3 and w.isalpha() and w not in other
                       and w not in COMMON and not canonical_skill(w) and not canonical_language(w)}
        self.unique = sorted(c for c, t in truth.items() if t["name"] and keys[fold(t["name"])] == 1
                             and files[t["person_id"]] == 1)

    def form(self, cid: str, rng: random.Random, avoid: str = "") -> str:
        """Full, lowercase, first-name-only or lowercase-surname form (the short forms only when unique)."""
        name = self.truth[cid]["name"]
        style = rng.choice(["full", "lower", "first", "surname"])
        part = name.split()[0] if style == "first" else name.split()[-1].lower()
        if style in ("first", "surname") and all(w in self.single and w not in fold(avoid) for w in fold(part).split()):
            return part
        return name.lower() if style == "lower" else name


def _q(cat: str, template: str, n: str, rng: random.Random, **kw) -> Q:
    return {"cat": cat, "q": template.format(n=n, p=n + rng.choice(["'s", "'s", "’s"]), **kw)}


def _history(cid: str, t: dict, names: Names, rng: random.Random) -> Q | None:
    """One before / after / role-at / first / latest / degree question about one person."""
    from cvrag_desktop.text.vocab.degrees import degree_level

    kind = rng.choice(["before", "after", "role_at", "first", "latest", "degree"])
    if kind == "degree":  # a level the person holds once, with the institution stated
        levels = Counter(degree_level(e["degree"] or "") for e in t["education"])
        eds = [e for e in t["education"] if e.get("institution") and levels[lv := degree_level(e["degree"] or "")] == 1
               and lv in LEVEL_WORDS]
        if not eds:
            return None
        ed = rng.choice(eds)
        lvl = rng.choice(LEVEL_WORDS[degree_level(ed["degree"])])
        return {**_q("hw-history", rng.choice(T[kind]), names.form(cid, rng), rng, lvl=lvl), "expect": [ed["institution"]]}
    roles = clean_history(t)
    if not roles:
        return None
    if kind in ("first", "latest"):
        r = roles[0] if kind == "first" else roles[-1]
        return {**_q("hw-history", rng.choice(T[kind]), names.form(cid, rng), rng), "expect": [r["company"], r["title"]]}
    # the employer asked about: held once, and no other employer of the person starts with it (or it with them)
    keys = [ckey(r["company"]) for r in roles]
    ok = [i for i, k in enumerate(keys) if len(k) >= 4 and not any(j != i and (o.startswith(k) or k.startswith(o))
                                                                   for j, o in enumerate(keys))]
    ok = [i for i in ok if kind == "role_at" or (kind == "before" and i > 0) or (kind == "after" and i < len(roles) - 1)]
    y = short_company(roles[i := rng.choice(ok)]["company"]) if ok else ""
    if not ok or set(fold(t["name"]).split()) & set(fold(y).split()):
        return None
    q = _q("hw-history", rng.choice(T[kind]), names.form(cid, rng, avoid=y), rng, y=y)
    if kind == "role_at":
        return {**q, "expect": [roles[i]["title"]]}
    return {**q, "expect": [roles[i - 1 if kind == "before" else i + 1]["company"]]}


def _lookup(cid: str, t: dict, names: Names, rng: random.Random) -> Q | None:
    """One paraphrased field question about one person."""
    kind = rng.choice(["email", "phone", "location", "certs", "langs", "current"])
    expect = {"email": t["emails"][:1], "phone": t["phones"][:1], "location": [t["location"]] if t["location"] else [],
              "certs": t["certifications"], "langs": t["languages"],
              "current": [t["current_company"]] if t["current_company"] else []}[kind]
    return {**_q("hw-lookup", rng.choice(T[kind]), names.form(cid, rng), rng), "expect": expect} if expect else None


def _aggregates(truth: dict[str, dict], rng: random.Random) -> list[Q]:
    """Current job started earliest, graduated first / last, most employers, an employer shared by people.

    Per person, the newest CV file counts; otherwise the product's rules: a year-only start is
    January, a year-only graduation December, several current roles count by the earliest start.
    A tie at the top skips the question.
    """
    docs: dict[str, list[str]] = {}
    for cid in sorted(truth, key=lambda c: (truth[c]["as_of"], len(truth[c]["experiences"]))):
        docs.setdefault(truth[cid]["person_id"], []).append(cid)
    cur, early, late, emp = {}, {}, {}, {}
    for pid, cids in docs.items():
        t = truth[cids[-1]]
        starts = [months(r["start"])[0] for r in t["experiences"] if r["is_current"] and months(r["start"])]
        ends = [months(e["end"])[1] for e in t["education"] if months(e.get("end")) and (e["degree"] or e["institution"])]
        if starts:
            cur[pid] = min(starts)
        if ends:
            early[pid], late[pid] = min(ends), max(ends)
        emp[pid] = len({ckey(r["company"]) for r in t["experiences"] if r["company"]})
    out: list[Q] = []
    for kind, vals, lowest in (("cur_start", cur, True), ("grad_early", early, True), ("grad_late", late, False),
                               ("most_emp", emp, False)):
        ranked = sorted(vals, key=vals.get, reverse=not lowest)
        if len(ranked) >= 2 and vals[ranked[0]] != vals[ranked[1]]:
            out += [{"cat": "hw-aggregate", "q": q, "expect_ids": sorted(docs[ranked[0]]), "top": True}
                    for q in rng.sample(T[kind], 2)]
    people_at: dict[str, set[str]] = {}
    for t in truth.values():
        for r in t["experiences"]:
            people_at.setdefault(ckey(r["company"]), set()).add(t["person_id"])
    shared = sorted(((len(v), k) for k, v in people_at.items() if len(v) >= 2 and k), reverse=True)
    if len(shared) >= 2 and shared[0][0] > shared[1][0]:  # the product lists the most shared employer first
        name = next(r["company"] for t in truth.values() for r in t["experiences"] if ckey(r["company"]) == shared[0][1])
        out += [{"cat": "hw-aggregate", "q": q, "expect": [short_company(name)]} for q in rng.sample(T["shared"], 2)]
    return out


def _count(truth: dict[str, dict], rng: random.Random, k: int) -> list[Q]:
    """How many *people* (not CV files) have a skill (listed, or named in their prose as ingestion reads it)."""
    from assistant import gt_skills

    from cvrag_desktop.text.vocab.skills import canonical_skill, skill_key

    listed = Counter(canonical_skill(s) for t in truth.values() for s in t["skills"] if canonical_skill(s))
    mid = sorted(s for s, c in listed.items() if 2 <= c <= max(3, len(truth) // 4))
    out = []
    for s, template in zip(rng.sample(mid, min(k, len(mid))), rng.choices(T["count"], k=k), strict=False):
        people = {t["person_id"] for t in truth.values() if skill_key(s) in gt_skills(t)}
        out.append({"cat": "hw-count", "q": template.format(s=s), "expect_count": len(people)})
    return out


def build_handwritten(truth: dict[str, dict], rng: random.Random, today: dt.date) -> list[dict]:
    """About 60 hand-written recruiter questions with expectations from the ground truth."""
    from cvrag_desktop.domain import Experience, years_of_experience

    names = Names(truth)
    qs: list[Q] = []
    for make in (_history, _lookup):
        qs += [q for cid in rng.sample(names.unique, len(names.unique)) if (q := make(cid, truth[cid], names, rng))][:14]
    years = {c: years_of_experience([Experience.model_validate(e) for e in truth[c]["experiences"]], today)
             for c in names.unique}
    dated = [c for c in names.unique if years[c] is not None]
    made = 0
    for _ in range(500 if len(dated) >= 3 else 0):  # 2 or 3 people at least a year apart, expected best first
        group = sorted(rng.sample(dated, 2 + made % 2), key=lambda c: -years[c])
        if any(years[a] - years[b] < 1.0 for a, b in itertools.pairwise(group)):
            continue
        shown = rng.sample(group, len(group))  # asked in random order
        q = rng.choice(T[f"cmp{len(group)}"]).format(**{k: truth[c]["name"] for k, c in zip("abc", shown, strict=False)})
        qs.append({"cat": "hw-compare", "q": q, "expect_order": [truth[c]["name"] for c in group],
                   "expect_years": [years[c] for c in group]})
        if (made := made + 1) == 6:
            break
    qs += _aggregates(truth, rng) + _count(truth, rng, 8)
    for cid, template in zip(rng.sample(names.unique, 6), rng.sample(T["unknown"], 6), strict=False):
        qs.append({**_q("hw-unanswerable", template, names.form(cid, rng), rng), "unknown": True})
    known = {w for t in truth.values() for w in fold(t["name"]).split()}
    qs += [{"cat": "hw-unanswerable", "q": q, "unknown": True} for q, name in rng.sample(NOT_IN_LIBRARY, 2)
           if not set(fold(name).split()) & known]
    return qs


def score(q: dict, r: dict) -> bool:
    """Did the answer meet every expectation of a hand-written question (values case/accent-folded)?"""
    if q.get("unknown"):
        return r["status"] == "unknown"
    ans = fold(r["answer"])
    ok = r["status"] == "answered" and all(fold(v) in ans for v in q.get("expect", []))
    if "expect_order" in q:  # each name present, in the expected order
        pos = [ans.find(fold(n)) for n in q["expect_order"]]
        ok = ok and min(pos) >= 0 and pos == sorted(pos)
    if "expect_years" in q:  # ranked *by years*: each person's years stated (±0.5: import date vs today)
        said = [float(x) for x in re.findall(r"(\d+(?:\.\d+)?)\s*(?:years?|yrs)\b", r["answer"])]
        ok = ok and all(any(abs(x - y) <= 0.5 for x in said) for y in q["expect_years"])
    if "expect_count" in q:
        ok = ok and (r.get("data") or {}).get("count") == q["expect_count"]
    if "expect_ids" in q:  # "top": the first person named is the expected one
        got = r.get("matches") or [c["candidate_id"] for c in r["citations"]]
        ok = ok and bool(got) and (got[0] in q["expect_ids"] if q.get("top") else set(q["expect_ids"]) <= set(got))
    return ok


def expected(q: dict) -> dict:
    """What a hand-written question expected (for the misses list)."""
    return {k: q[k] for k in ("expect", "expect_order", "expect_years", "expect_count", "expect_ids", "unknown") if k in q}


def print_handwritten(label: str, res: dict, limit: int = 15) -> None:
    """The hand-written table: share correct per category, citation validity, the first misses."""
    rows = [r for r in res["rows"] if r["cat"].startswith("hw-")]
    print(f"\n## {label}\n")
    print(f"{'category':<16}{'questions':>10}{'metric':>28}{'value':>10}")
    for cat in [*dict.fromkeys(r["cat"] for r in rows), "all"]:
        sub = [r for r in rows if cat in (r["cat"], "all")]
        print(f"{cat:<16}{len(sub):>10}{'correct':>28}{sum(r['correct'] for r in sub) / max(1, len(sub)):>10.0%}")
    print(f"{'all':<16}{len(rows):>10}{'citation validity':>28}{sum(r['cite_ok'] for r in rows) / max(1, len(rows)):>10.0%}")
    fails = [f for f in res["fails"] if f["cat"].startswith("hw-")]
    print(f"\nmisses ({len(fails)}):" if fails else "")
    for f in fails[:limit]:
        print("  -", json.dumps(f, ensure_ascii=False)[:400])
