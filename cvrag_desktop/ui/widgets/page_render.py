"""A page rasterised for the preview, and where strings sit on it: highlights and blind-mode masks.

Runs in a worker (PyMuPDF, the extraction engine, so no extra dependency); the widget in
``pdf_preview.py`` only paints the pixels and the boxes. Boxes are PDF points with a top-left
origin, as the catalog stores them.
"""

from __future__ import annotations

import re

from cvrag_desktop.app.rules import NAME_MARK, page_boxes

ZOOM = 1.6
MIN_ZOOM, MAX_ZOOM = 0.25, 4.0

MAX_HITS = 12
MAX_MASKED = 400  # identifying strings found on one page (blind screening)
WORD_PUNCT = ".,;:()[]{}<>\"'|·•*–-"
HANDLE = re.compile(r"[@/]|\w\.\w|\d")  # a token that is an address, a link or a user handle, not a word
CLIP_MARGIN = 4.0


def find_text(page, tiers: list[list[str]], clip=None) -> list[tuple[float, float, float, float]]:
    """Rectangles where the strings of the first tier that hits occur on a PyMuPDF page.

    ``tiers`` are tried in order (e.g. the cited facts, then the quoted lines); each string
    is searched with ``page.search_for`` (case-insensitive) inside ``clip`` when given; at
    most ``MAX_HITS`` rectangles.
    """
    import pymupdf

    area = None
    if clip:
        x0, y0, x1, y1 = clip
        area = pymupdf.Rect(x0 - CLIP_MARGIN, y0 - CLIP_MARGIN, x1 + CLIP_MARGIN, y1 + CLIP_MARGIN)
    for needles in tiers:
        hits: list[tuple[float, float, float, float]] = []
        for needle in needles:
            needle = " ".join(str(needle).split())
            if len(needle) < 2:
                continue
            if needle.isalpha():  # one word: whole words only ("De" never lights inside "Developer")
                hits += whole_words(page, needle, area)[:4]
                continue
            hits += [(r.x0, r.y0, r.x1, r.y1) for r in page.search_for(needle, clip=area)[:4]]
            if len(hits) >= MAX_HITS:
                break
        if hits:
            return hits[:MAX_HITS]
    return []


def whole_words(page, word: str, clip=None) -> list[tuple[float, float, float, float]]:
    """Rectangles of the words on the page that are ``word`` (case-insensitive), allowing only
    punctuation or digits around it ("Python3", "(SQL)"), never more letters."""
    key = word.casefold()
    out = []
    for x0, y0, x1, y1, text, *_ in page.get_text("words", clip=clip):
        token = text.casefold()
        at = token.find(key)
        while at >= 0:
            before = token[at - 1] if at else ""
            after = token[at + len(key)] if at + len(key) < len(token) else ""
            if not before.isalpha() and not after.isalpha():
                out.append((x0, y0, x1, y1))
                break
            at = token.find(key, at + 1)
    return out


def find_all(page, needles: list[str]) -> list[tuple[float, float, float, float]]:
    """Every rectangle where one of ``needles`` occurs on the page, for blind screening: a name
    printed again in a footer or a second page's header is covered as well as the boxed one from
    provenance. A one-word needle covers whole words only ("Ana" is not the start of "Analyst"),
    or an address, link or handle it is part of ("github.com/anaq", "anaq7"); e-mails, links,
    numbers and several words are found wherever they are, inside a longer token too
    ("Mail:ana@x.es")."""
    words = None
    out: list[tuple[float, float, float, float]] = []
    for needle in needles:
        if str(needle).startswith(NAME_MARK):  # the whole name: its parts are covered by blind_page
            continue
        needle = " ".join(str(needle).split())
        if len(needle) < 3:
            continue
        key = needle.casefold()
        loose = " " in key or any(ch.isdigit() or ch in "@/" for ch in key)
        if loose:  # several words, an e-mail, a link or a number: wherever the text layer has it
            out += [(r.x0, r.y0, r.x1, r.y1) for r in page.search_for(needle)]
        if " " not in key:  # one word: whole words, or inside an address, link or handle ("github.com/anaq7")
            words = page.get_text("words") if words is None else words
            for w in words:
                token = w[4].casefold().strip(WORD_PUNCT)
                if token == key or (key in token and (loose or HANDLE.search(token))):
                    out.append((w[0], w[1], w[2], w[3]))
        if len(out) >= MAX_MASKED:
            break
    return out[:MAX_MASKED]


def render_page(path: str, page: int, zoom: float = ZOOM, fit_width: int | None = None,
                find: list[list[str]] | None = None, clip=None, fit_height: int | None = None,
                mask: list[str] | None = None) -> dict:
    """Rasterise one page (runs in a worker): RGB bytes, size, page count, the zoom used.

    With ``fit_width`` (pixels) the zoom is chosen so the page fills that width, with
    ``fit_height`` too so the whole page fits; with ``find`` (tiers of strings, see
    :func:`find_text`) their rectangles are returned as ``hits``; with ``mask`` (strings) every
    place they occur as ``masked``. ``page`` is clamped to this document's pages.
    """
    import pymupdf

    with pymupdf.open(path) as doc:
        count = doc.page_count
        page = max(0, min(page, count - 1))
        if fit_width:
            rect = doc[page].rect
            zoom = fit_width / max(rect.width, 1)
            if fit_height:
                zoom = min(zoom, fit_height / max(rect.height, 1))
            zoom = max(MIN_ZOOM, min(MAX_ZOOM, zoom))
        pix = doc[page].get_pixmap(matrix=pymupdf.Matrix(zoom, zoom), alpha=False)
        hits = find_text(doc[page], find, clip) if find else []
        masked = find_all(doc[page], mask) if mask else []
        if mask:  # blind screening: private-life lines, photos, a name's parts on the next line
            names = [m[len(NAME_MARK):] for m in mask if str(m).startswith(NAME_MARK)]
            masked += page_boxes(doc[page], names)
        return {"samples": bytes(pix.samples), "width": pix.width, "height": pix.height,
                "stride": pix.stride, "page": page, "pages": count, "zoom": zoom, "hits": hits, "masked": masked}
