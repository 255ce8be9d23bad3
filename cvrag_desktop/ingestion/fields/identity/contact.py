"""Contact facts: e-mails, phones, links, location, and the patterns and line cells they are read with.

Contact details are found by pattern, phones only where a label, a ``+`` prefix or the
header block vouches for them (dates look like phone numbers). The patterns, :class:`Hit`
and :func:`split_cells` are shared by the name and headline readers
(``identity/names.py``, ``identity/headline.py``) and by the line-role features.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from cvrag_desktop.ingestion.read.extracted import ExtractedDoc
from cvrag_desktop.text.vocab.lexicon import load_lexicon

# every repeat is bounded (local part <= 64, labels <= 63, <= 8 labels, TLD <= 24: RFC 5321 sizes) and every
# start is anchored by a look-behind, so a pattern costs linear time on any line (a 1 MB line of "a.a.a…" or
# "1 1 1 …" took minutes with unbounded repeats: each start position rescanned the rest of the line)
_LABEL = r"[A-Za-z0-9-]{1,63}"
EMAIL = re.compile(rf"(?<![\w.+-])[A-Za-z0-9][\w.+-]{{0,63}}@{_LABEL}(?:\.{_LABEL}){{0,8}}\.[A-Za-z]{{2,24}}(?![\w-])")
URL = re.compile(
    r"(?:https?://|www\.)[^\s|,;]+|(?<![@\w.])(?:[a-z0-9-]{1,63}\.){1,8}(?:com|io|dev|me|org|net|ai|co|de|es|fr|it|pt|uk|eu|info|app|page|site)(?:/[^\s|,;]*)?(?![\w@])",
    re.IGNORECASE,
)
PHONE = re.compile(r"(?<![\w/])(?:\+|00)?\s?(?:\(\+?\d{1,4}\)\s?)?\d[\d\s().\-/]{5,18}\d(?![\w/])")
PHONE_LABEL = re.compile(
    r"(?:tel|phone|mobile|mob|cell|móvil|movil|teléfono|telefono|telefon|handy|tél|téléphone|fon|celular|"
    r"telemóvel|cellulare|telefone|电话|手机|携帯|電話|fax|t|p|m)\s*[.:]?\s*$",
    re.IGNORECASE,
)
_SPLIT = re.compile(r"\t|\s[·|•]\s|\s{3,}|\s[–—]\s")


@dataclass
class Hit:
    """A value and the index of the line it came from."""

    value: str
    line: int


def split_cells(text: str) -> list[str]:
    """The pieces of a line between separators (tabs, bullets, dashes, wide gaps), trimmed."""
    return [c.strip(" ,;:·|") for c in _SPLIT.split(text) if c.strip(" ,;:·|")]


_WRAPPED_EMAIL = re.compile(rf"[A-Za-z0-9][\w.+-]{{0,63}}@{_LABEL}(?:\.{_LABEL}){{0,8}}\.$")
_CUE_REACH = 60  # a label or cue is looked for in this many characters before a value (not the whole line)
_REFERENCE_CUE = re.compile(r"\b(?:ref(?:erence|eree)?s?|referenz|référence|referencia|referência|supervisor|"
                            r"manager|contact person)\b\s*[:.]?\s*$", re.IGNORECASE)


# one space on one side only, and a lower-case domain: "Engineer @ Brightwater.Tek" is a title and its firm
_DOMAIN = r"(?=[a-z0-9-]{1,63}(?:\.[a-z0-9-]{1,63}){0,8}\.[a-z]{2,24}\b)"
_SPACED_AT = re.compile(rf"(?<=[\w.+-]) @{_DOMAIN}|(?<=[\w.+-])@ {_DOMAIN}")


_COMMON_TLDS = frozenset({"com", "org", "net", "edu", "gov", "info", "biz", "mil", "mobi", "name", "pro"})


def _cut_tld(address: str, rest: str) -> bool:
    """Does ``rest`` (the next line) finish an address cut inside its last label ("…@hotmail.co" + "m")?
    Only when the joined ending is a common one and the printed ending is not ("….com" + "uk" stays)."""
    if rest.startswith("."):
        return True  # "…@example.co" / ".uk"
    tld = address.rsplit(".", 1)[-1].lower()
    return tld not in _COMMON_TLDS and (tld + rest) in _COMMON_TLDS


def _unglue_ocr_address(address: str) -> str:
    """OCR that lost the spaces of a contact row glues its neighbours onto an address
    ("CAjohn.doe@email.comrendercv.com"): the domain ends at its first common ending that more letters
    follow, and capitals glued before a lower-case local part are the previous cell's."""
    local, _, domain = address.partition("@")
    m = re.match(r"^((?:[\w-]+\.)*?[\w-]+\.(?:" + "|".join(sorted(_COMMON_TLDS)) + r"))[a-z]", domain)
    if m:
        domain = m.group(1)
    glued = re.match(r"^[A-Z]{2,}(?=[a-z])", local)
    if glued:
        local = local[glued.end():]
    return f"{local}@{domain}"


def find_emails(doc: ExtractedDoc) -> list[Hit]:
    """Every distinct e-mail address, in reading order."""
    seen: set[str] = set()
    out = []
    for i, ln in enumerate(doc.lines):
        text = ln.text
        cut = _WRAPPED_EMAIL.search(text)
        if cut and i + 1 < len(doc.lines) and (tld := re.match(r"^((?:[a-z0-9-]{1,63}\.){0,3}[a-z]{2,6})\b", doc.lines[i + 1].text.strip())):
            text = text[: cut.end()] + tld.group(1)  # "name@mycompany." / "fr" (or "itu.edu"): wrapped at a dot
        elif i + 1 < len(doc.lines) and re.fullmatch(r"\.?[a-z]{1,4}", rest := doc.lines[i + 1].text.strip()) \
                and doc.lines[i + 1].page == ln.page and doc.lines[i + 1].column == ln.column \
                and (last := list(EMAIL.finditer(text))) and last[-1].end() == len(text.rstrip()) \
                and _cut_tld(last[-1].group(0), rest):
            text = text.rstrip() + rest  # "name@hotmail.co" / "m": a narrow column broke the address mid-word
        if " @" in text or "@ " in text:
            text = _SPACED_AT.sub("@", text)  # "jdoe @gmail.com": a space the text layer put before the "@"
        for m in EMAIL.finditer(text):
            if m.start() > 0 and text[m.start() - 1] == "@":
                continue  # "@user@instance.social": a fediverse handle, not an address
            if _REFERENCE_CUE.search(text[max(0, m.start() - _CUE_REACH): m.start()]):
                continue  # "Institut X - Ref: jane@x.fr": a referee's address
            v = m.group(0).rstrip(".")
            if ln.font == "ocr":
                v = _unglue_ocr_address(v)
            if v.lower() not in seen:
                seen.add(v.lower())
                out.append(Hit(v, i))
    return out


def find_phones(doc: ExtractedDoc, header_lines: set[int]) -> list[Hit]:
    """Phone numbers vouched for by a label, a ``+``/``00`` prefix or the header block."""
    out: list[Hit] = []
    seen: set[str] = set()
    for i, ln in enumerate(doc.lines):
        for m in PHONE.finditer(ln.text):
            v = m.group(0).strip()
            digits = re.sub(r"\D", "", v)
            if not 7 <= len(digits) <= 15:
                continue
            if re.fullmatch(r"(?:19|20)\d{2}\s*[-–/.]\s*(?:19|20)?\d{2}(?:\s*[-–/.]\s*\d{1,2})?", v):
                continue  # a date range
            if re.search(r"(?:19|20)\d{2}\s*[-–]\s*(?:19|20)\d{2}", v):
                continue
            before = ln.text[max(0, m.start() - _CUE_REACH): m.start()]  # a label sits right before it
            labelled = bool(PHONE_LABEL.search(before)) or (i > 0 and PHONE_LABEL.fullmatch(doc.lines[i - 1].text.strip()))
            if not (labelled or v.startswith(("+", "(", "00")) or i in header_lines):
                continue
            if digits in seen:
                continue
            seen.add(digits)
            out.append(Hit(v, i))
    return out


def find_links(doc: ExtractedDoc, header_lines: set[int]) -> list[Hit]:
    """Web links (profiles, homepages), skipping the domains of e-mail addresses."""
    out: list[Hit] = []
    seen: set[str] = set()
    for i, ln in enumerate(doc.lines):
        text = EMAIL.sub(" ", ln.text)
        for m in URL.finditer(text):
            v = m.group(0).rstrip(".,)")
            explicit = v.lower().startswith(("http", "www")) or "/" in v
            if not explicit and i not in header_lines:
                continue
            if v.lower() not in seen:
                seen.add(v.lower())
                out.append(Hit(v, i))
    return out


def find_location(doc: ExtractedDoc, header_lines: set[int], name: Hit | None) -> Hit | None:
    """A "City, Region" piece in the header block (or after a location label)."""
    lex = load_lexicon()
    for i in sorted(header_lines):
        text = doc.lines[i].text
        m = re.search(r"(?:location|address|ubicación|dirección|adresse|wohnort|indirizzo|endereço)\s*:\s*([^\t|]+)", text, re.I)
        if m:
            return Hit(m.group(1).strip(), i)
        for cell in split_cells(text):
            if name and cell == name.value:
                continue
            if re.fullmatch(r"[A-ZÀ-Ý][\w.'\- ]{1,30},\s*[A-ZÀ-Ý][\w.'\- ]{1,30}(?:,\s*[A-ZÀ-Ý][\w.'\- ]{1,30})?", cell) \
                    and not re.search(r"\d", cell) and not lex.title_re.search(cell) and not lex.company_re.search(cell):
                return Hit(cell, i)
    return None
