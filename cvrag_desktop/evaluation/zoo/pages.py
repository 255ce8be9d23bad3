"""HTML CV pages of the zoo's own design, printed by headless Chromium: CSS sidebars, grids, icons, photos.

Three designs common among online CV builders, written as plain HTML + CSS (no script, no web font,
nothing fetched): ``sidebar`` a dark left column with the photo, contacts behind SVG icons, skill
pills and language meters; ``timeline`` dates in a left grid column beside a rule, headings in
capitals by CSS; ``cards`` a header band with a round photo, a contact row with icons, entries as
cards with a date badge and three side-by-side lists. Headings are the CV's own (its language).
Every value is escaped; the page is fully determined by the draft.
"""

from __future__ import annotations

import base64
import random
from html import escape

from cvrag_desktop.factory.avatar import make_avatar
from cvrag_desktop.factory.model import CVDraft

DESIGNS = ("sidebar", "timeline", "cards")

_ICONS = {  # small inline SVG paths (no text in the PDF's text layer, as real icon fonts mostly are not)
    "email": "M2 4h20v16H2z M2 4l10 8 10-8",
    "phone": "M6 2h4l2 5-3 2a11 11 0 0 0 6 6l2-3 5 2v4a2 2 0 0 1-2 2A18 18 0 0 1 4 4a2 2 0 0 1 2-2z",
    "location": "M12 2a7 7 0 0 1 7 7c0 5-7 13-7 13S5 14 5 9a7 7 0 0 1 7-7z",
    "web": "M12 2a10 10 0 1 0 0 20a10 10 0 1 0 0-20 M2 12h20",
}
_KINDS = ("email", "phone", "location", "web")

_CSS = {
    "sidebar": """
body{margin:0;font:10pt 'DejaVu Sans',sans-serif;color:#222}
.page{display:grid;grid-template-columns:6.2cm 1fr;min-height:29.7cm}
aside{background:#243447;color:#f2f2f2;padding:1cm .6cm}
aside img{width:3.2cm;height:3.2cm;border-radius:50%;display:block;margin:0 auto .5cm}
aside h2{font-size:11pt;border-bottom:1px solid #8aa;margin:.6cm 0 .2cm}
.c{display:flex;gap:.2cm;align-items:center;margin:.1cm 0;word-break:break-all;font-size:8.5pt}
.pill{display:inline-block;background:#3d5670;border-radius:8px;padding:1px 6px;margin:2px;font-size:8.5pt}
.meter{height:4px;background:#567;margin:1px 0 6px}.meter i{display:block;height:4px;background:#9cf}
main{padding:1cm}h1{font-size:22pt;margin:0}.hl{font-size:12pt;color:#4a6a8a;margin:.1cm 0 .4cm}
main h2{font-size:12pt;color:#243447;border-bottom:2px solid #243447;margin:.5cm 0 .2cm}
.e{margin:.25cm 0}.eh{display:flex;justify-content:space-between}.eh b{font-size:10.5pt}
.d{color:#666;font-size:9pt;white-space:nowrap;margin-left:.3cm}ul{margin:.1cm 0 0 .4cm;padding:0}""",
    "timeline": """
body{margin:1.2cm 1.4cm;font:10pt 'DejaVu Serif',serif;color:#111}
h1{font-size:24pt;font-weight:normal;margin:0}.hl{font-size:12pt;font-style:italic}
.contacts{display:flex;flex-wrap:wrap;gap:.5cm;margin:.2cm 0 .4cm;font-size:9pt}
.c{display:flex;gap:.15cm;align-items:center}
h2{text-transform:uppercase;letter-spacing:1px;font-size:11pt;color:#7a1f1f;margin:.5cm 0 .2cm}
.row{display:grid;grid-template-columns:3.6cm 1fr;border-left:0;margin:.15cm 0}
.d{color:#7a1f1f;font-size:9pt;padding-right:.3cm;border-right:2px solid #ccc}
.x{padding-left:.4cm}.x b{display:block}ul{margin:.1cm 0 0 .4cm;padding:0}""",
    "cards": """
body{margin:0;font:9.5pt 'Liberation Sans','DejaVu Sans',sans-serif;color:#1d1d1d}
header{background:#0f6e6e;color:#fff;padding:.8cm 1.2cm;display:flex;justify-content:space-between;align-items:center}
header h1{margin:0;font-size:22pt}header img{width:2.6cm;height:2.6cm;border-radius:50%;border:3px solid #fff}
.contacts{display:flex;flex-wrap:wrap;gap:.45cm;padding:.25cm 1.2cm;background:#e6f2f2;font-size:8.5pt}
.c{display:flex;gap:.12cm;align-items:center}section{padding:0 1.2cm}
h2{font-size:12pt;color:#0f6e6e;margin:.45cm 0 .15cm}
.card{border:1px solid #cfe3e3;border-radius:6px;padding:.2cm .3cm;margin:.15cm 0;break-inside:avoid}
.badge{float:right;background:#0f6e6e;color:#fff;border-radius:8px;padding:0 6px;font-size:8pt}
.three{display:grid;grid-template-columns:1fr 1fr 1fr;gap:.4cm}ul{margin:.1cm 0 0 .4cm;padding:0}""",
}


def _icon(kind: str, color: str) -> str:
    return (f'<svg width="11" height="11" viewBox="0 0 24 24" fill="none" stroke="{color}" stroke-width="2">'
            f'<path d="{_ICONS[kind]}"/></svg>')


def _photo(draft: CVDraft) -> str:
    png = make_avatar(draft.cv.name or draft.spec.cv_id, random.Random(draft.spec.rng_key).getrandbits(32))
    return f'<img alt="" src="data:image/png;base64,{base64.b64encode(png).decode()}">'


def _contacts(pr: dict, color: str) -> str:
    labels = {}
    for c in pr["contact"]:
        labels.setdefault(c["label"], _KINDS[len(labels) % len(_KINDS)])
    return "".join(f'<div class="c">{_icon(labels[c["label"]], color)}<span>{escape(c["value"])}</span></div>'
                   for c in pr["contact"])


def _bullets(items: list[str]) -> str:
    return "<ul>" + "".join(f"<li>{escape(b)}</li>" for b in items) + "</ul>" if items else ""


def _role_head(r: dict) -> str:
    return escape(", ".join(x for x in (r["company"], r["location"]) if x))


def _sidebar(pr: dict, photo: str) -> str:
    h = pr["headings"]
    side = [photo, f"<h2>{escape(h['contact'])}</h2>", _contacts(pr, "#9cf")]
    if pr["skills"]:
        side += [f"<h2>{escape(h['skills'])}</h2>", "".join(f'<span class="pill">{escape(s)}</span>' for s in pr["skills"])]
    if pr["languages"]:
        side.append(f"<h2>{escape(h['languages'])}</h2>")
        side += [f'<div>{escape(x)}</div><div class="meter"><i style="width:{90 - 15 * k}%"></i></div>'
                 for k, x in enumerate(pr["languages"])]
    main = [f"<h1>{escape(pr['name'])}</h1>", f'<div class="hl">{escape(pr["headline"])}</div>' if pr["headline"] else ""]
    if pr["summary"]:
        main += [f"<h2>{escape(h['summary'])}</h2>", f"<p>{escape(pr['summary'])}</p>"]
    main.append(f"<h2>{escape(h['experience'])}</h2>")
    main += [f'<div class="e"><div class="eh"><b>{escape(r["title"])}</b><span class="d">{escape(r["period"])}</span>'
             f'</div><div>{_role_head(r)}</div>{_bullets(r["bullets"])}</div>' for r in pr["roles"]]
    main.append(f"<h2>{escape(h['education'])}</h2>")
    main += [f'<div class="e"><div class="eh"><b>{escape(e["degree"])}</b><span class="d">{escape(e["period"])}</span>'
             f'</div><div>{escape(e["institution"])}</div></div>' for e in pr["education"]]
    if pr["certifications"]:
        main += [f"<h2>{escape(h['certifications'])}</h2>", _bullets(pr["certifications"])]
    return f'<div class="page"><aside>{"".join(side)}</aside><main>{"".join(main)}</main></div>'


def _timeline(pr: dict, _photo_html: str) -> str:
    h = pr["headings"]
    out = [f"<h1>{escape(pr['name'])}</h1>", f'<div class="hl">{escape(pr["headline"])}</div>' if pr["headline"] else "",
           f'<div class="contacts">{_contacts(pr, "#7a1f1f")}</div>']
    if pr["summary"]:
        out += [f"<h2>{escape(h['summary'])}</h2>", f"<p>{escape(pr['summary'])}</p>"]
    out.append(f"<h2>{escape(h['experience'])}</h2>")
    out += [f'<div class="row"><div class="d">{escape(r["period"])}</div><div class="x"><b>{escape(r["title"])}</b>'
            f'{_role_head(r)}{_bullets(r["bullets"])}</div></div>' for r in pr["roles"]]
    out.append(f"<h2>{escape(h['education'])}</h2>")
    out += [f'<div class="row"><div class="d">{escape(e["period"])}</div><div class="x"><b>{escape(e["degree"])}</b>'
            f'{escape(e["institution"])}</div></div>' for e in pr["education"]]
    for key, items in (("skills", [", ".join(pr["skills"])] if pr["skills"] else []),
                       ("languages", pr["languages"]), ("certifications", pr["certifications"])):
        if items:
            out += [f"<h2>{escape(h[key])}</h2>", "".join(f"<div>{escape(x)}</div>" for x in items)]
    return "".join(out)


def _cards(pr: dict, photo: str) -> str:
    h = pr["headings"]
    head = (f"<header><div><h1>{escape(pr['name'])}</h1><div>{escape(pr['headline'])}</div></div>{photo}</header>"
            f'<div class="contacts">{_contacts(pr, "#0f6e6e")}</div>')
    body = []
    if pr["summary"]:
        body += [f"<h2>{escape(h['summary'])}</h2>", f"<p>{escape(pr['summary'])}</p>"]
    body.append(f"<h2>{escape(h['experience'])}</h2>")
    body += [f'<div class="card"><span class="badge">{escape(r["period"])}</span><b>{escape(r["title"])}</b>'
             f'<div>{_role_head(r)}</div>{_bullets(r["bullets"])}</div>' for r in pr["roles"]]
    body.append(f"<h2>{escape(h['education'])}</h2>")
    body += [f'<div class="card"><span class="badge">{escape(e["period"])}</span><b>{escape(e["degree"])}</b>'
             f'<div>{escape(e["institution"])}</div></div>' for e in pr["education"]]
    cols = [f"<div><h2>{escape(h[k])}</h2>{_bullets(items)}</div>"
            for k, items in (("skills", pr["skills"]), ("languages", pr["languages"]),
                             ("certifications", pr["certifications"])) if items]
    return f'{head}<section>{"".join(body)}<div class="three">{"".join(cols)}</div></section>'


_BUILD = {"sidebar": _sidebar, "timeline": _timeline, "cards": _cards}


def build_page(design: str, draft: CVDraft, pr: dict) -> str:
    """The HTML page of ``draft`` in ``design`` (KeyError for an unknown design); ``pr`` is its printed record."""
    body = _BUILD[design](pr, _photo(draft))
    lang = escape(draft.hints.lang)
    return (f'<!DOCTYPE html><html lang="{lang}"><head><meta charset="utf-8"><title>{escape(pr["name"])}</title>'
            f"<style>@page{{size:A4;margin:0}}{_CSS[design]}</style></head><body>{body}</body></html>")
