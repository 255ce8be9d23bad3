"""Cheap checks that refuse PDF bombs before MuPDF expands them.

Run on an opened document before any text is extracted (:func:`check_document`) and on
each page before it is read (:func:`check_page`). Nothing here inflates more than the
limit it enforces; every refusal is a :class:`TooLarge` naming the limit (a setting in
:class:`~cvrag_desktop.config.IngestLimits`).

* object and stream counts;
* total inflated bytes over **all** streams (page contents, form XObjects, fonts,
  images), counted without keeping the output;
* images: declared size and, for JPEG/JPEG 2000, the size the data really decodes to
  (a dictionary saying 1×1 over a 12000×12000 JPEG);
* per page: the content it really draws — its own streams plus every form XObject it
  invokes, times the number of invocations, recursively — and the nesting depth.

These are the first line; the worker's memory cap and deadline (``sandbox``) catch
what slips through (tiling patterns and Type 3 glyph procedures are not expanded here).
"""

from __future__ import annotations

import base64
import re
import zlib

from cvrag_desktop.config import IngestLimits
from cvrag_desktop.errors import TooLarge

_REF = re.compile(r"/([^\s/<>\[\]()]+)\s*(\d+)\s+\d+\s+R")
_DO = re.compile(rb"/([^\s/\[\]()<>{}%]+)\s*Do\b")
_FILTER = re.compile(r"/(\w+)")
MB = 1_000_000


def _filters(doc, xref: int) -> list[str]:
    return _FILTER.findall(doc.xref_get_key(xref, "Filter")[1] or "")


def _inflate(raw: bytes, limit: int, keep: bool) -> tuple[int, bytes]:
    """Inflate at most ``limit + 1`` bytes of a Flate stream: (size counted, output if ``keep``)."""
    inflater = zlib.decompressobj()
    total, parts, data = 0, [], raw
    try:
        while data:
            out = inflater.decompress(data, 1 << 20)
            total += len(out)
            if keep:
                parts.append(out)
            if total > limit or not out:
                break
            data = inflater.unconsumed_tail
    except zlib.error:
        pass  # a damaged stream: MuPDF decides; count what was inflated
    return total, b"".join(parts)


_SIMPLE = {"FlateDecode", "Fl", "ASCII85Decode", "A85", "ASCIIHexDecode", "AHx"}
_SMALL_RAW = 32_768


_FILTER_KEY = re.compile(r"/Filter\s*(\[[^\]]*\]|/\w+)")


def _decoded(doc, xref: int, limit: int, keep: bool = True, filters: list[str] | None = None) -> tuple[int, bytes]:
    """A stream's decoded size (bounded by ``limit + 1``) and, if ``keep``, its bytes."""
    if filters is None:
        filters = _filters(doc, xref)
    raw = doc.xref_stream_raw(xref) or b""
    if len(raw) <= _SMALL_RAW and filters and set(filters) <= _SIMPLE and not set(filters) <= {"FlateDecode", "Fl"}:
        # ASCII85/Hex + Flate (reportlab's page contents): MuPDF's C decoder is ~50x faster than
        # base64.a85decode, and a stream this small inflates to at most ~1000x its size
        data = doc.xref_stream(xref) or b""
        return min(len(data), limit + 1), data[:limit + 1] if keep else b""
    if not filters or set(filters) <= _SIMPLE:
        size, data = len(raw), raw
        try:
            for i, f in enumerate(filters):
                if f in ("FlateDecode", "Fl"):
                    size, data = _inflate(data, limit, keep=keep or i < len(filters) - 1)
                    if size > limit:
                        break
                elif f in ("ASCII85Decode", "A85"):
                    data = base64.a85decode(re.sub(rb"\s", b"", data).removesuffix(b"~>").removeprefix(b"<~"))
                    size = len(data)
                else:
                    data = bytes.fromhex(re.sub(rb"[^0-9A-Fa-f]", b"", data.split(b">")[0]).decode())
                    size = len(data)
        except ValueError:
            return len(raw), b""  # a stream this check cannot decode: MuPDF judges it
        return size, data if keep else b""
    if any(f in ("DCTDecode", "JPXDecode", "CCITTFaxDecode", "JBIG2Decode", "DCT", "CCF") for f in filters):
        return len(raw), b""  # image codecs: judged by pixel size instead
    if len(raw) > 65_536:  # other filters (LZW, RunLength…, rare in CVs): left to the worker's memory cap
        return len(raw), b""
    data = doc.xref_stream(xref) or b""
    return len(data), data if keep else b""


def jpeg_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) from a JPEG's SOF marker (what the decoder will allocate), or None."""
    if not data.startswith(b"\xff\xd8"):
        return None
    i, n = 2, len(data)
    while i + 9 < n:
        if data[i] != 0xFF:
            i += 1
            continue
        marker = data[i + 1]
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7 or marker == 0xFF:
            i += 1 if marker == 0xFF else 2
            continue
        seg = int.from_bytes(data[i + 2:i + 4], "big")
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            h = int.from_bytes(data[i + 5:i + 7], "big")
            w = int.from_bytes(data[i + 7:i + 9], "big")
            return w, h
        i += 2 + seg
    return None


def jpx_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) from a JPEG 2000 image header (``ihdr`` box or codestream SIZ), or None."""
    at = data.find(b"ihdr", 0, 4096)
    if at >= 0 and at + 12 <= len(data):
        return int.from_bytes(data[at + 8:at + 12], "big"), int.from_bytes(data[at + 4:at + 8], "big")
    at = data.find(b"\xff\x51", 0, 4096)  # SIZ marker of a raw codestream
    if at >= 0 and at + 14 <= len(data):
        return int.from_bytes(data[at + 6:at + 10], "big"), int.from_bytes(data[at + 10:at + 14], "big")
    return None


def _int_key(doc, xref: int, key: str) -> int:
    kind, value = doc.xref_get_key(xref, key)
    try:
        return int(float(value)) if kind in ("int", "float") else 0
    except ValueError:
        return 0


def check_document(doc, name: str, limits: IngestLimits) -> None:
    """Object and stream counts, total inflated bytes and image sizes over the whole file."""
    n = doc.xref_length()
    if n > limits.max_objects:
        raise TooLarge(f"{name} holds {n:,} PDF objects; the limit is {limits.max_objects:,} (max_objects).")
    budget = limits.max_inflated_mb * MB
    total = streams = 0
    sizes: dict[int, int] = {}
    for xref in range(1, n):
        try:
            if not doc.xref_is_stream(xref):
                continue
        except Exception:  # a broken object: MuPDF decides later
            continue
        streams += 1
        if streams > limits.max_streams:
            raise TooLarge(f"{name} holds more than {limits.max_streams:,} PDF streams (max_streams).")
        head = doc.xref_object(xref, compressed=True)  # one call for the dictionary (the wrapper is costly)
        found = _FILTER_KEY.search(head)
        filters = _FILTER.findall(found.group(1)) if found else []
        if "/Subtype/Image" in head.replace(" ", ""):
            _check_image(doc, xref, name, limits)
        size, _ = _decoded(doc, xref, budget - total, keep=False, filters=filters)
        sizes[xref] = size
        total += size
        if total > budget:
            raise TooLarge(f"{name} decompresses to more than {limits.max_inflated_mb} MB across its streams "
                           f"(fonts, images, drawings; max_inflated_mb) — a decompression bomb?")
    _SIZES[id(doc)] = (doc, sizes)
    while len(_SIZES) > 4:  # a worker reads one document at a time
        _SIZES.pop(next(iter(_SIZES)))


_SIZES: dict[int, tuple[object, dict[int, int]]] = {}  # decoded stream sizes measured by check_document


def _known_sizes(doc) -> dict[int, int]:
    entry = _SIZES.get(id(doc))
    return entry[1] if entry is not None and entry[0] is doc else {}


def _check_image(doc, xref: int, name: str, limits: IngestLimits) -> None:
    w, h = _int_key(doc, xref, "Width"), _int_key(doc, xref, "Height")
    if w * h > limits.max_image_pixels:
        raise TooLarge(f"{name} holds a {w}×{h} image; the limit is {limits.max_image_pixels:,} pixels "
                       "(max_image_pixels).")
    filters = _filters(doc, xref)
    if filters and filters[-1] in ("DCTDecode", "DCT", "JPXDecode"):
        head = (doc.xref_stream_raw(xref) or b"")[:65536] if len(filters) == 1 else b""
        real = jpeg_size(head) if filters[-1] != "JPXDecode" else jpx_size(head)
        if real and real[0] * real[1] > limits.max_image_pixels:
            raise TooLarge(f"{name} holds an image declared {w}×{h} that decodes to {real[0]}×{real[1]}; "
                           f"the limit is {limits.max_image_pixels:,} pixels (max_image_pixels).")


def _xobjects(doc, xref: int) -> dict[str, int]:
    """Name → xref of the XObjects in an object's resources (a page inherits them from its parents)."""
    for _ in range(32):
        kind, value = doc.xref_get_key(xref, "Resources/XObject")
        if kind == "xref":
            ref = int(value.split()[0])
            return {k: int(v.split()[0]) for k, v in
                    ((k, doc.xref_get_key(ref, k)[1]) for k in doc.xref_get_keys(ref)) if v.endswith(" R")}
        if kind == "dict":
            return {m.group(1): int(m.group(2)) for m in _REF.finditer(value)}
        if doc.xref_get_key(xref, "Resources")[0] != "null":
            return {}
        kind, parent = doc.xref_get_key(xref, "Parent")
        if kind != "xref":
            return {}
        xref = int(parent.split()[0])
    return {}


def check_page(doc, page, name: str, limits: IngestLimits) -> None:
    """Refuse a page whose drawn content (own streams + invoked form XObjects) passes the limit."""
    limit = limits.max_page_content_mb * MB
    where = f"{name}: page {page.number + 1}"
    forms = {k: x for k, x in _xobjects(doc, page.xref).items()
             if doc.xref_get_key(x, "Subtype")[1] == "/Form"}
    known = _known_sizes(doc)
    content, size = [], 0
    for xref in page.get_contents():
        if not forms and xref in known:  # measured by check_document; the bytes are only needed for forms
            n = known[xref]
        else:
            n, data = _decoded(doc, xref, limit - size)
            content.append(data)
        size += n
        if size > limit:
            raise TooLarge(f"{where} decompresses to more than {limits.max_page_content_mb} MB "
                           "(max_page_content_mb) — a decompression bomb?")
    for img in page.get_images(full=False):
        width, height = img[2], img[3]
        if width * height > limits.max_image_pixels:
            raise TooLarge(f"{where} holds a {width}×{height} image; the limit is "
                           f"{limits.max_image_pixels:,} pixels (max_image_pixels).")
    if not forms:
        return
    memo: dict[int, int] = {}

    def expanded(xref: int, depth: int, active: frozenset) -> int:
        if depth > limits.max_xobject_depth:
            raise TooLarge(f"{where} nests drawings (form XObjects) more than {limits.max_xobject_depth} deep "
                           "(max_xobject_depth).")
        if xref in active:
            raise TooLarge(f"{where} holds drawings (form XObjects) that invoke themselves.")
        if xref in memo:
            return memo[xref]
        own, data = _decoded(doc, xref, limit)
        total = own
        if total <= limit:
            inner = {k: x for k, x in _xobjects(doc, xref).items() if doc.xref_get_key(x, "Subtype")[1] == "/Form"}
            total += _invoked(data, inner, depth, active | {xref})
        memo[xref] = total
        return total

    def _invoked(data: bytes, inner: dict[str, int], depth: int, active: frozenset) -> int:
        total = 0
        if not inner:
            return 0
        for m in _DO.finditer(data):
            x = inner.get(m.group(1).decode("latin-1"))
            if x is not None:
                total += expanded(x, depth + 1, active)
                if total > limit:
                    break
        return total

    size += _invoked(b"\n".join(content), forms, 0, frozenset())
    if size > limit:
        raise TooLarge(f"{where} draws more than {limits.max_page_content_mb} MB of content once its "
                       "form XObjects are expanded (max_page_content_mb) — a content flood?")
