"""Factory draft -> a LaTeX source in one of the CV classes Debian's TeX Live ships, typeset by XeLaTeX.

Each family is one class (and style): moderncv's five styles (``\\moderncvstyle[nosymbols]{...}``:
Debian's texlive-latex-extra has no fontawesome5, so the styles' icons are letters), europasscv (the
Europass grid: labels in a left column) and currvita (dates in a left list column under an article).
Every value is escaped (:func:`tex_escape`), so the text printed is the factory's wording, character
for character: headings in the CV's language, periods as the CV prints them ("03/2019 - 06/2021").
XeLaTeX is used for Unicode (Polish, accents) with Latin Modern. Each document is compiled in a
temporary folder under ``nice`` with a deadline, again only while XeLaTeX asks for it; a failure is one
document's failure.
"""

from __future__ import annotations

import re
import shutil
import tempfile
from pathlib import Path

from cvrag_desktop.evaluation.zoo.engines import ZooToolError, run_tool, which
from cvrag_desktop.factory.model import CVDraft

# One family per class or style (families.LATEX_CLASSES names them "tex-<class>").
MODERNCV_STYLES: dict[str, str] = {  # style -> colour (varied so the families differ in more than layout)
    "classic": "blue", "casual": "green", "banking": "burgundy", "oldstyle": "grey", "fancy": "orange",
}
# europasscv prints its own labels ("Personal information", "Work experience") in the CV's language.
_EUROPASS_LANG = {"en": "english", "es": "spanish", "de": "german", "fr": "french", "pt": "portuguese",
                  "it": "italian", "pl": "polish", "nl": "dutch"}
_SPECIALS = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
             "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}"}
_SPECIAL = re.compile(r"[\\&%$#_{}~^]")
# TeX ligatures that would change the text: "--" -> en dash, "``" -> quote, "!`" -> inverted mark
_LIGATURE = re.compile(r"(?<=[-`'!?<>,])(?=[-`'<>,])")


def tex_escape(value: str) -> str:
    """``value`` as literal LaTeX text: every special character escaped, no ligature, no line break."""
    text = _SPECIAL.sub(lambda m: _SPECIALS[m.group()], value.replace("\n", " "))
    text = _LIGATURE.sub("{}", text)
    return "{}" + text if text.startswith("[") else text  # never read as an optional argument


def not_printed(template: str, draft: CVDraft) -> list[str]:
    """Truth fields the class cannot print for this draft: europasscv has no headline field."""
    return ["headline"] if template == "europasscv" and draft.cv.headline else []


def _split_name(name: str) -> tuple[str, str]:
    first, _, last = name.strip().rpartition(" ")
    return (first, last) if first else (name.strip(), "")


def _items(bullets: list[str]) -> str:
    if not bullets:
        return ""
    return "\\begin{itemize}\n" + "".join(f"\\item {tex_escape(b)}\n" for b in bullets) + "\\end{itemize}"


def _moderncv(style: str, draft: CVDraft, pr: dict) -> str:
    cv, h = draft.cv, pr["headings"]
    first, last = _split_name(pr["name"])
    out = ["\\documentclass[11pt,a4paper,sans]{moderncv}", f"\\moderncvstyle[nosymbols]{{{style}}}",
           f"\\moderncvcolor{{{MODERNCV_STYLES[style]}}}", "\\usepackage[scale=0.8]{geometry}",
           f"\\name{{{tex_escape(first)}}}{{{tex_escape(last)}}}"]
    if pr["headline"]:
        out.append(f"\\title{{{tex_escape(pr['headline'])}}}")
    if cv.location:
        out.append(f"\\address{{{tex_escape(cv.location)}}}{{}}{{}}")
    for kind, phone in zip(("mobile", "fixed"), cv.phones, strict=False):
        out.append(f"\\phone[{kind}]{{{tex_escape(phone)}}}")
    if cv.emails:
        out.append(f"\\email{{{tex_escape(cv.emails[0])}}}")
    if cv.links:
        out.append(f"\\homepage{{{tex_escape(cv.links[0])}}}")
    extra = [*cv.emails[1:], *cv.phones[2:], *cv.links[1:]]
    if extra:
        out.append("\\extrainfo{" + "\\\\".join(tex_escape(x) for x in extra) + "}")
    out += ["\\begin{document}", "\\makecvtitle"]
    if pr["summary"]:
        out += [f"\\section{{{tex_escape(h['summary'])}}}", f"\\cvitem{{}}{{{tex_escape(pr['summary'])}}}"]
    out.append(f"\\section{{{tex_escape(h['experience'])}}}")
    for r in pr["roles"]:
        out.append(f"\\cventry{{{tex_escape(r['period'])}}}{{{tex_escape(r['title'])}}}{{{tex_escape(r['company'])}}}"
                   f"{{{tex_escape(r['location'])}}}{{}}{{{_items(r['bullets'])}}}")
    out.append(f"\\section{{{tex_escape(h['education'])}}}")
    for e in pr["education"]:
        out.append(f"\\cventry{{{tex_escape(e['period'])}}}{{{tex_escape(e['degree'])}}}"
                   f"{{{tex_escape(e['institution'])}}}{{}}{{}}{{}}")
    if pr["skills"]:
        out += [f"\\section{{{tex_escape(h['skills'])}}}", f"\\cvitem{{}}{{{tex_escape(', '.join(pr['skills']))}}}"]
    for key in ("languages", "certifications"):
        if pr[key]:
            out.append(f"\\section{{{tex_escape(h[key])}}}")
            out += [f"\\cvlistitem{{{tex_escape(x)}}}" for x in pr[key]]
    return "\n".join([*out, "\\end{document}", ""])


def _europass(draft: CVDraft, pr: dict) -> str:
    cv, h = draft.cv, pr["headings"]
    lang = _EUROPASS_LANG.get(draft.hints.lang, "english")
    out = [f"\\documentclass[{lang},a4paper]{{europasscv}}", "\\usepackage{fontspec}",
           f"\\ecvname{{{tex_escape(pr['name'])}}}"]
    if cv.location:
        out.append(f"\\ecvaddress{{{tex_escape(cv.location)}}}")
    if cv.phones:
        out.append(f"\\ecvmobile{{{tex_escape(cv.phones[0])}}}")
    if len(cv.phones) > 1:
        out.append(f"\\ecvtelephone{{{tex_escape(cv.phones[1])}}}")
    if cv.emails:
        out.append(f"\\ecvemail{{{tex_escape(cv.emails[0])}}}")
    if cv.links:
        out.append(f"\\ecvhomepage{{{tex_escape(cv.links[0])}}}")
    out += ["\\begin{document}", "\\begin{europasscv}", "\\ecvpersonalinfo"]
    extra = [*cv.emails[1:], *cv.phones[2:], *cv.links[1:]]
    if extra:
        out.append("\\ecvitem{}{" + ", ".join(tex_escape(x) for x in extra) + "}")
    if pr["summary"]:
        out += [f"\\ecvsection{{{tex_escape(h['summary'])}}}", f"\\ecvitem{{}}{{{tex_escape(pr['summary'])}}}"]
    out.append(f"\\ecvsection{{{tex_escape(h['experience'])}}}")
    for r in pr["roles"]:
        where = ", ".join(x for x in (r["company"], r["location"]) if x)
        out += [f"\\ecvtitle{{{tex_escape(r['period'])}}}{{{tex_escape(r['title'])}}}",
                f"\\ecvitem{{}}{{{tex_escape(where)}}}"]
        if r["bullets"]:
            out.append(f"\\ecvitem{{}}{{{_items(r['bullets'])}}}")
    out.append(f"\\ecvsection{{{tex_escape(h['education'])}}}")
    for e in pr["education"]:
        out += [f"\\ecvtitle{{{tex_escape(e['period'])}}}{{{tex_escape(e['degree'])}}}",
                f"\\ecvitem{{}}{{{tex_escape(e['institution'])}}}"]
    for key, sep in (("skills", ", "), ("languages", "\\\\ "), ("certifications", "\\\\ ")):
        if pr[key]:
            out += [f"\\ecvsection{{{tex_escape(h[key])}}}",
                    "\\ecvitem{}{" + sep.join(tex_escape(x) for x in pr[key]) + "}"]
    return "\n".join([*out, "\\end{europasscv}", "\\end{document}", ""])


def _currvita(draft: CVDraft, pr: dict) -> str:
    cv, h = draft.cv, pr["headings"]
    out = ["\\documentclass[a4paper,11pt]{article}", "\\usepackage{fontspec}",
           "\\usepackage[margin=2cm]{geometry}", "\\usepackage[NoDate]{currvita}",
           "\\setlength{\\cvlabelwidth}{38mm}", "\\begin{document}",
           f"\\begin{{cv}}{{{tex_escape(pr['name'])}}}"]
    top = [pr["headline"]] if pr["headline"] else []
    contact = " \\textbullet{} ".join(tex_escape(x) for x in [cv.location or "", *cv.emails, *cv.phones, *cv.links] if x)
    out.append("\\noindent " + "".join(f"\\textit{{{tex_escape(x)}}}\\\\\n" for x in top) + contact + "\n")
    if pr["summary"]:
        out += [f"\\begin{{cvlist}}{{{tex_escape(h['summary'])}}}", f"\\item {tex_escape(pr['summary'])}",
                "\\end{cvlist}"]
    out.append(f"\\begin{{cvlist}}{{{tex_escape(h['experience'])}}}")
    for r in pr["roles"]:
        head = f"\\textbf{{{tex_escape(r['title'])}}}, {tex_escape(r['company'])}"
        head += f", {tex_escape(r['location'])}" if r["location"] else ""
        body = "".join(f"\\newline --- {tex_escape(b)}" for b in r["bullets"])
        out.append(f"\\item[{tex_escape(r['period'])}] {head}{body}")
    out += ["\\end{cvlist}", f"\\begin{{cvlist}}{{{tex_escape(h['education'])}}}"]
    for e in pr["education"]:
        out.append(f"\\item[{tex_escape(e['period'])}] \\textbf{{{tex_escape(e['degree'])}}}\\newline "
                   f"{tex_escape(e['institution'])}")
    out.append("\\end{cvlist}")
    for key in ("skills", "languages", "certifications"):
        if pr[key]:
            joined = ", ".join(tex_escape(x) for x in pr[key]) if key == "skills" else None
            items = [f"\\item {joined}"] if joined else [f"\\item {tex_escape(x)}" for x in pr[key]]
            out += [f"\\begin{{cvlist}}{{{tex_escape(h[key])}}}", *items, "\\end{cvlist}"]
    return "\n".join([*out, "\\end{cv}", "\\end{document}", ""])


def to_tex(template: str, draft: CVDraft, pr: dict) -> str:
    """The LaTeX source of a draft in one class (``pr`` is its printed record, plan.printed_record)."""
    if template.startswith("moderncv-"):
        return _moderncv(template.removeprefix("moderncv-"), draft, pr)
    if template == "europasscv":
        return _europass(draft, pr)
    if template == "currvita":
        return _currvita(draft, pr)
    raise ValueError(f"unknown LaTeX class {template!r}")


# page references ("Page 1 / 2") need another pass; PDF outlines (hyperref's bookmarks) print no text
_RERUN = re.compile(r"Rerun to get cross-references|Label\(s\) may have changed")


def compile_tex(source: str, pdf: Path, timeout: float = 180) -> None:
    """Typeset ``source`` with XeLaTeX in a temporary folder and move the PDF to ``pdf``.

    XeLaTeX runs again only while its log asks for it (page references such as "Page 1 / 2"), as
    latexmk would, but without latexmk's extra pass on a fresh folder: a pass costs seconds a document."""
    xelatex = which(("xelatex",))
    if xelatex is None:
        raise ZooToolError("xelatex is not installed (make zoo-tools installs it)")
    with tempfile.TemporaryDirectory(prefix="zoo-tex-") as tmp:
        tex = Path(tmp) / "cv.tex"
        tex.write_text(source, encoding="utf-8")
        for _ in range(3):
            try:
                run_tool([xelatex, "-interaction=nonstopmode", "-halt-on-error", f"-output-directory={tmp}",
                          str(tex)], timeout, "xelatex")
            except ZooToolError as exc:
                raise ZooToolError(f"{exc}{_log_error(Path(tmp) / 'cv.log')}") from exc
            if not _RERUN.search((Path(tmp) / "cv.log").read_text(encoding="utf-8", errors="replace")):
                break
        shutil.move(str(Path(tmp) / "cv.pdf"), pdf)


def _log_error(log: Path) -> str:
    try:
        errors = [ln for ln in log.read_text(encoding="utf-8", errors="replace").splitlines() if ln.startswith("!")]
    except OSError:
        return ""
    return f"; {errors[0][:200]}" if errors else ""


def render(jobs: list[tuple[str, Path]]) -> dict[str, str]:
    """Typeset each (source, pdf path); ``{pdf path: error}`` for the ones that failed."""
    failed = {}
    for source, pdf in jobs:
        try:
            compile_tex(source, pdf)
        except ZooToolError as exc:
            failed[str(pdf)] = str(exc)
    return failed
