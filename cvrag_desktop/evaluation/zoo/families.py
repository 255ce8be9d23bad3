"""The zoo's template families: which engine prints each, its pinned package, and the held-out bench.

A family is one template of one engine. ``HELD_OUT`` is a fixed list of ten families kept aside as a
bench: they are built like the others, but no tuning or training may open them (later steps score
leave-one-family-out and report the bench separately). Never change the list to suit a result.
"""

from __future__ import annotations

from dataclasses import dataclass

JSONRESUME = "jsonresume"  # an npm JSON Resume theme: render(resume) -> HTML, printed by Chromium
WORD = "word"  # python-docx in one structural style, kept as DOCX, printed by LibreOffice
FACTORY = "factory"  # the factory's own reportlab layouts
HTML = "html"  # the zoo's own HTML + CSS pages (pages.py), printed by Chromium
RENDERCV = "rendercv"  # RenderCV's themes, typeset by Typst (rendercv.py), in an environment of their own
LATEX = "latex"  # a CV class of Debian's TeX Live, typeset by XeLaTeX (latex.py)

# JSON Resume themes from the npm registry, pinned. Each was checked to render offline; a theme that
# failed is listed in FAILED_THEMES with the reason instead of here.
JSONRESUME_THEMES: dict[str, str] = {
    "jsonresume-theme-elegant": "1.16.1",
    "jsonresume-theme-even": "0.26.1",
    "jsonresume-theme-flat": "0.3.7",
    "jsonresume-theme-kendall": "0.2.0",
    "jsonresume-theme-macchiato": "1.1.0",
    "jsonresume-theme-stackoverflow": "3.3.0",
    "jsonresume-theme-class": "0.1.2",
    "jsonresume-theme-onepage": "0.0.3",
    "jsonresume-theme-paper": "0.5.0",
    "jsonresume-theme-spartan": "0.3.0",
    "jsonresume-theme-caffeine": "1.2.3",
    # Added for issue 36 (names found in public JSON Resume material, each checked offline; appended only)
    "jsonresume-theme-latte": "1.0.3",  # a left sidebar (contact, skills, languages) beside the history
    "jsonresume-theme-direct": "0.1.1",  # capitals headings, skills column beside the history
    "jsonresume-theme-eloquent": "5.0.0",  # icon-font headings, "Title, Employer" lines
    "jsonresume-theme-spartacus": "1.0.0",  # a contact/skills/education sidebar, "at Employer"
    "jsonresume-theme-classy": "1.0.9",  # capitals name block, "Title, Employer" then the dates
    "jsonresume-theme-actual": "0.2.2",  # title / employer / "Jan 2019 - Present" on three lines
    "jsonresume-theme-modern": "0.0.18",  # employer above title, a photo box, "Phone:" labels
    "jsonresume-theme-simple-red": "1.0.4",  # a table: employers and dates in a left column, titles apart
    "jsonresume-theme-rnord": "1.0.0",  # label rows (Email, Phone), a two-column grid
    "jsonresume-theme-straightforward": "0.5.0",  # one contact line with middots, dates right of the title
    "jsonresume-theme-onepage-plus": "1.1.0",  # name and headline on one line, a date column on the left
    "jsonresume-theme-microdata": "0.2.0",  # a narrow column: the headline wraps, employer above title
    "jsonresume-theme-short": "0.1.7",  # skills in capitals, profiles as label rows
    "jsonresume-theme-orbit": "3.0.0",  # a dark left sidebar (contact, education, languages), skill bars
    "jsonresume-theme-cora": "0.1.1",  # "2019-Jan - Present" dates, icon contact lines
}
# Truth fields a theme never shows (they reach its HTML only as a page title or meta tag): zoo.not_printed.
THEME_NOT_PRINTED: dict[str, tuple[str, ...]] = {
    "jsonresume-theme-modern": ("headline",),
    "jsonresume-theme-short": ("headline",),
    "jsonresume-theme-straightforward": ("headline",),
}
# Themes tried and dropped, with why (kept so nobody retries them blind).
FAILED_THEMES: dict[str, str] = {
    "jsonresume-theme-professional@1.1.0": "ships JSX source (React, styled-components peers) that node cannot "
                                           "load without a bundler: 'Unexpected token <'",
    "jsonresume-theme-papirus@0.0.5": "renders, but Chromium printed a two-page CV on 107 A4 pages (a fixed full-height "
                                      "layout repeated per page)",
    "jsonresume-theme-rickosborne": "not on the npm registry (404)",
    "jsonresume-theme-spartacus-prime": "not on the npm registry (404)",
    "jsonresume-theme-stackoverflow-roboto": "not on the npm registry (404)",
    "jsonresume-theme-americano": "not on the npm registry (404)",
    "jsonresume-theme-reactive": "not on the npm registry (404)",
    "jsonresume-theme-engineering": "not on the npm registry (404)",
    "jsonresume-theme-business-professional-compact": "not on the npm registry (404)",
    "jsonresume-theme-standard": "not on the npm registry (404)",
    "jsonresume-theme-modern-plain": "not on the npm registry (404)",
    "jsonresume-theme-intern": "not on the npm registry (404)",
}
# Themes whose templates need a schema key the zoo leaves out: the key is added with an empty value
# (nothing printed; orbit's skill bar helper calls toLowerCase() on every skill's level).
THEME_INPUT_KEYS: dict[str, dict[str, dict[str, str]]] = {  # theme -> section (a list or basics) -> keys
    "jsonresume-theme-orbit": {"skills": {"level": ""}},
    "jsonresume-theme-classy": {"basics": {"label": ""}},  # upper-cases basics.label: fails without a headline
}
# Themes that read basics.profiles[0] whenever the key is there: an empty list is left out for them.
THEME_NO_EMPTY_PROFILES: frozenset[str] = frozenset({"jsonresume-theme-classy", "jsonresume-theme-cora"})

# Word structural styles seen in real inboxes (cvrag_desktop/evaluation/zoo/word.py).
WORD_STYLES: tuple[str, ...] = (
    "datecell",  # a layout table per entry: dates in the left cell, title/employer/bullets in the right
    "tabdates",  # "Title, Employer" then a right-aligned tab stop with the dates
    "header",  # name and contacts in the page header part, body in plain paragraphs
    "boldheads",  # headings made only by bold runs (no heading styles)
    "capsheads",  # headings made only by capitals (no heading styles, no bold)
    "oneline",  # one-line "Title, Employer, City, dates" entries
    "labeltable",  # a label/value personal-data table, then label/value entry tables
    "twocol",  # a two-column layout table: contact, skills, languages left; history right
    "sectiontable",  # one table for the CV: the section's name in the left cell, its content in the right
    # Added with issue 36's content (word_frames.py); appended so the older families keep their order.
    "textbox",  # the sidebar (contacts, skills, languages) in a DrawingML text box anchored to the page
    "europass",  # one borderless table: right-aligned labels and periods left, content right
    "shaded",  # name and a headline/contacts table in the header part; headings as shaded table rows
    "boxedheads",  # each heading the only cell of a bordered 1x1 table
)

# HTML designs of the zoo (cvrag_desktop/evaluation/zoo/pages.py).
HTML_DESIGNS: tuple[str, ...] = ("sidebar", "timeline", "cards")

# RenderCV's Typst themes (RenderCV 2.3, pinned in rendercv.PACKAGE).
RENDERCV_THEMES: tuple[str, ...] = ("classic", "sb2nov", "moderncv", "engineeringresumes", "engineeringclassic")

# The factory's own reportlab layouts that make zoo families (factory/render/).
FACTORY_LAYOUTS: tuple[str, ...] = (
    "classic", "sidebar", "gutter", "table", "localized", "moderncv", "datecol", "europass",
    "timeline", "labelled", "linkedin", "linkedin_old", "wordtable", "oneline", "builder",
    "academic", "designer",
    "rirekisho", "lebenslauf",  # national forms (factory/render/forms/), added with issue 36's content
)
# Factory families that print one of the layouts above with content of their own (CONTENT): (name, layout).
FACTORY_VARIANTS: tuple[tuple[str, str], ...] = (
    ("fx-cjk-classic", "classic"), ("fx-cjk-wordtable", "wordtable"),
    ("fx-world-datecol", "datecol"), ("fx-world-sidebar", "sidebar"),
)


@dataclass(frozen=True)
class Content:
    """What a family's documents draw from the factory, when it is not what the first 45 families draw.

    ``locales`` None is the factory's nine (MIXED_LOCALES); ``anonymous`` and ``placeholders`` are the
    rates of those hard cases (0 for the first 45 families, whose content never changes)."""

    locales: tuple[str, ...] | None = None
    anonymous: float = 0.0
    placeholders: float = 0.0


NINE = ("es_ES", "en_GB", "de_DE", "fr_FR", "en_US", "pt_BR", "it_IT", "pl_PL", "nl_NL")
ELEVEN = (*NINE, "zh_CN", "ja_JP")
_TEMPLATE_TEXT = Content(NINE, anonymous=0.08, placeholders=0.15)  # Word: LibreOffice here has no CJK font
CONTENT: dict[str, Content] = {
    "word-textbox": _TEMPLATE_TEXT, "word-europass": _TEMPLATE_TEXT, "word-shaded": _TEMPLATE_TEXT,
    "word-boxedheads": _TEMPLATE_TEXT,
    "fx-rirekisho": Content(("ja_JP",)), "fx-lebenslauf": Content(("de_DE",), anonymous=0.05, placeholders=0.1),
    "fx-cjk-classic": Content(("zh_CN", "ja_JP"), anonymous=0.05, placeholders=0.05),
    "fx-cjk-wordtable": Content(("zh_CN", "ja_JP"), anonymous=0.05, placeholders=0.05),
    "fx-world-datecol": Content(ELEVEN, anonymous=0.1, placeholders=0.2),
    "fx-world-sidebar": Content(ELEVEN, anonymous=0.1, placeholders=0.2),
}

# CV classes of Debian's TeX Live (texlive-latex-extra), typeset by XeLaTeX (latex.py): family "tex-<class>".
LATEX_CLASSES: tuple[str, ...] = (
    "moderncv-classic", "moderncv-casual", "moderncv-banking", "moderncv-oldstyle", "moderncv-fancy",
    "europasscv", "currvita",
)

# The bench: ten families never opened or tuned on. Fixed; spread over every engine.
HELD_OUT: frozenset[str] = frozenset({
    "jr-caffeine", "jr-kendall", "jr-paper",
    "word-labeltable", "word-capsheads", "word-header",
    "fx-timeline", "fx-designer", "rcv-sb2nov", "html-cards",
})


@dataclass(frozen=True)
class Family:
    """One template family of the zoo: its name, the engine that prints it, and what it needs."""

    name: str  # "jr-even", "word-datecell", "fx-classic"
    engine: str  # JSONRESUME, WORD, HTML, RENDERCV, FACTORY or LATEX
    template: str  # the npm package, the Word style, the HTML design, the RenderCV theme or the factory layout
    version: str = ""  # the pinned package version (npm themes, RenderCV)
    held_out: bool = False

    @property
    def needs(self) -> tuple[str, ...]:
        """The external tools this family needs at build time."""
        return {JSONRESUME: ("node", "chromium"), WORD: ("soffice",), HTML: ("chromium",),
                RENDERCV: ("rendercv",), FACTORY: (), LATEX: ("xelatex",)}[self.engine]


def _short(package: str) -> str:
    return "jr-" + package.removeprefix("jsonresume-theme-")


def all_families() -> list[Family]:
    """Every family of the zoo, in a fixed order (JSON Resume, Word, HTML, RenderCV, factory layouts, LaTeX)."""
    fams = [Family(_short(p), JSONRESUME, p, v) for p, v in JSONRESUME_THEMES.items()]
    fams += [Family(f"word-{s}", WORD, s) for s in WORD_STYLES]
    fams += [Family(f"html-{d}", HTML, d) for d in HTML_DESIGNS]
    fams += [Family(f"rcv-{t}", RENDERCV, t, "2.3") for t in RENDERCV_THEMES]
    fams += [Family(f"fx-{x}", FACTORY, x) for x in FACTORY_LAYOUTS]
    fams += [Family(name, FACTORY, x) for name, x in FACTORY_VARIANTS]
    fams += [Family(f"tex-{c}", LATEX, c, "texlive-2022") for c in LATEX_CLASSES]
    return [Family(f.name, f.engine, f.template, f.version, f.name in HELD_OUT) for f in fams]


def family(name: str) -> Family:
    """The family called ``name`` (KeyError when there is none)."""
    for f in all_families():
        if f.name == name:
            return f
    raise KeyError(name)


def select(names: str | None) -> list[Family]:
    """Families named in a comma-separated list, an engine name, or every family for None/"all"."""
    fams = all_families()
    if not names or names == "all":
        return fams
    wanted = [n.strip() for n in names.split(",") if n.strip()]
    return [f for f in fams if f.name in wanted or f.engine in wanted]
