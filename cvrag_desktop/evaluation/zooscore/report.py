"""The zoo score: per-family counts, the 10 worst families, overall, DOCX vs PDF, unmarked precision.

Precision = shown values that match a truth value / shown values; recall = truth values found /
truth values (``real_cvs.FieldCounts``, micro-averaged over documents). A family is *flagged* when
any of the four key fields (name, title, employers, degrees) is below 0.8 in precision or recall.
The worst families are ranked by that lowest key number. Held-out families are their own rows and
their own overall line, never mixed into the open families' overall.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from cvrag_desktop.evaluation.real_cvs import FieldCounts
from cvrag_desktop.evaluation.zooscore.fields import BAR, FIELDS, KEY_FIELDS, Tally, merge_counts, new_counts

WORST = 10


@dataclass
class FamilyScore:
    """One family's documents scored: counts per field, DOCX-vs-PDF agreement, misses per document."""

    engine: str
    held_out: bool
    docs: int = 0
    errors: int = 0  # documents the extraction could not read (scored as empty)
    missing: int = 0  # truth files without a PDF (the build failed on them)
    pairs: int = 0  # DOCX + PDF pairs compared
    counts: dict[str, FieldCounts] = field(default_factory=new_counts)
    agreement: Tally = field(default_factory=Tally)
    misses: dict[str, dict] = field(default_factory=dict)

    def lowest_score(self) -> float:
        """The lowest precision or recall over the key fields (1.0 when none has a value)."""
        values = [v for f in KEY_FIELDS for v in (self.counts[f].precision, self.counts[f].recall) if v is not None]
        return min(values, default=1.0)

    @property
    def flagged(self) -> bool:
        """A key field below the bar (0.8) in precision or recall."""
        return self.lowest_score() < BAR


@dataclass
class ZooReport:
    """Every scored family, and the two shares measured beside them."""

    scope: str = "all"  # where unmarked precision was counted: "held-out" or "all"
    families: dict[str, FamilyScore] = field(default_factory=dict)
    unmarked: Tally = field(default_factory=Tally)  # right / values shown without the low-confidence mark
    marked: Tally = field(default_factory=Tally)  # right / values shown with it

    def group(self, held_out: bool) -> dict[str, FamilyScore]:
        """The open families (``held_out=False``) or the held-out ones, by name."""
        return {k: v for k, v in self.families.items() if v.held_out == held_out}

    def overall(self, held_out: bool = False) -> dict[str, FieldCounts]:
        """Counts summed over the open (or the held-out) families: every document counted once."""
        total = new_counts()
        for fam in self.group(held_out).values():
            merge_counts(total, fam.counts)
        return total

    def agreement(self, held_out: bool | None = None) -> Tally:
        """DOCX-vs-PDF agreement summed over the families that keep a DOCX (all, open or held-out)."""
        out = Tally()
        for fam in self.families.values():
            if held_out is None or fam.held_out == held_out:
                out.merge(fam.agreement)
        return out

    def worst(self, n: int = WORST) -> list[str]:
        """The ``n`` open families with the lowest key precision or recall."""
        open_ = self.group(False)
        return sorted(open_, key=lambda k: (open_[k].lowest_score(), k))[:n]

    def table(self) -> str:
        """The printable report: numbers only."""
        width = max([len(k) for k in self.families] + [16])
        head = f"{'family':<{width}} {'engine':<11}{'docs':>5}  " + " ".join(f"{f[:11]:^11}" for f in KEY_FIELDS)
        sub = f"{'':<{width}} {'':<11}{'':>5}  " + " ".join(f"{'P / R':^11}" for _ in KEY_FIELDS)

        def row(name: str, fam: FamilyScore) -> str:
            note = "  < 0.8" if fam.flagged else ""
            if fam.errors or fam.missing:
                note += f"  ({fam.errors} unreadable, {fam.missing} not built)"
            return (f"{name:<{width}} {fam.engine:<11}{fam.docs:>5}  "
                    + " ".join(_pr(fam.counts[f]) for f in KEY_FIELDS) + note)

        out = ["Every family (leave-one-family-out; precision / recall; '< 0.8' flags a key field below the bar)",
               head, sub]
        out += [row(k, v) for k, v in sorted(self.group(False).items())]
        held = self.group(True)
        if held:
            out += ["-- held-out families (the bench) --"] + [row(k, v) for k, v in sorted(held.items())]
        out += ["", f"The {min(WORST, len(self.group(False)))} worst families (lowest key precision or recall)", head, sub]
        out += [row(k, self.families[k]) for k in self.worst()]
        out += ["", "Overall (every document once; bars: name >= 0.97, title/employers/degrees >= 0.92)"]
        out.append(f"{'field':<14}{'precision':>10}{'recall':>8}{'shown':>8}{'truth':>8}"
                   + (f"{'held-out P / R':>18}" if held else ""))
        open_total, held_total = self.overall(False), self.overall(True)
        for f in FIELDS:
            c = open_total[f]
            line = f"{f:<14}{_pct(c.precision):>10}{_pct(c.recall):>8}{c.got:>8}{c.tp + c.fn:>8}"
            if held:
                line += f"{_pr(held_total[f]):>18}"
            out.append(line)
        docs = sum(v.docs for v in self.group(False).values())
        out.append(f"{len(self.group(False))} open families, {docs} documents"
                   + (f"; {len(held)} held-out families, {sum(v.docs for v in held.values())} documents" if held else ""))
        out += ["", self._agreement_table(), "", self._unmarked_line()]
        return "\n".join(out)

    def _agreement_table(self) -> str:
        pairs = sum(v.pairs for v in self.families.values())
        if not pairs:
            return "DOCX vs its PDF print: no family with DOCX files scored"
        words = [k for k, v in self.families.items() if v.pairs]
        agree = self.agreement()
        lines = [f"DOCX vs its PDF print ({pairs} pairs, {len(words)} Word families; agreement = values both "
                 "show / values either shows; bar >= 0.95)"]
        lines.append("  ".join(f"{f}={_pct(agree.share(f))}" for f in FIELDS if f in agree.per_field))
        for k in sorted(words):
            t = self.families[k].agreement
            lines.append(f"  {k:<20}" + " ".join(f"{f[:6]}={_pct(t.share(f))}" for f in KEY_FIELDS))
        return "\n".join(lines)

    def _unmarked_line(self) -> str:
        where = "held-out families" if self.scope == "held-out" else "every scored family"
        right, total = self.unmarked.total()
        m_right, m_total = self.marked.total()
        per = "  ".join(f"{f}={_pct(self.unmarked.share(f))}" for f in FIELDS if f in self.unmarked.per_field)
        return (f"Unmarked values right ({where}; bar >= 95 %): {_pct(right / total if total else None)} "
                f"of {total}  [{per}]\n"
                f"Marked 'check' values right: {_pct(m_right / m_total if m_total else None)} of {m_total}")

    def to_json(self, misses: bool = True) -> dict:
        """Everything as plain data (``--json``): per family, overall, agreement, unmarked precision."""
        def fields_of(counts: dict[str, FieldCounts]) -> dict:
            return {f: {**asdict(c), "precision": c.precision, "recall": c.recall} for f, c in counts.items()}

        fams = {}
        for k, v in self.families.items():
            fams[k] = {"engine": v.engine, "held_out": v.held_out, "docs": v.docs, "errors": v.errors,
                       "missing": v.missing, "flagged": v.flagged, "fields": fields_of(v.counts),
                       "docx_pdf_pairs": v.pairs, "docx_pdf_agreement": v.agreement.per_field}
            if misses:
                fams[k]["misses"] = v.misses
        return {"families": fams, "worst": self.worst(), "overall": fields_of(self.overall(False)),
                "overall_held_out": fields_of(self.overall(True)) if self.group(True) else None,
                "docx_pdf_agreement": {f: {"agree": a, "values": n, "share": self.agreement().share(f)}
                                       for f, (a, n) in self.agreement().per_field.items()},
                "unmarked": {"scope": self.scope, "per_field": self.unmarked.per_field,
                             "right": self.unmarked.total()[0], "values": self.unmarked.total()[1]},
                "marked": {"per_field": self.marked.per_field, "right": self.marked.total()[0],
                           "values": self.marked.total()[1]}}


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{x:.3f}"


def _pr(c: FieldCounts) -> str:
    p = "  -- " if c.precision is None else f"{c.precision:.3f}"
    r = " -- " if c.recall is None else f"{c.recall:.3f}"
    return f"{p}/{r}"
