"""Optional profile images, drawn locally with Pillow (no network, no face models).

Two kinds: an initials avatar (like the placeholders of mail clients, which OCR may read
as text) and abstract geometric art. Both are deterministic for a given seed.
"""

from __future__ import annotations

import io
import random
from functools import cache
from pathlib import Path

import reportlab
from PIL import Image, ImageDraw, ImageFont

_BOLD_TTF = Path(reportlab.__file__).resolve().parent / "fonts" / "VeraBd.ttf"
PALETTE = (
    (38, 70, 83),
    (42, 157, 143),
    (233, 196, 106),
    (244, 162, 97),
    (231, 111, 81),
    (94, 84, 142),
    (69, 123, 157),
    (29, 53, 87),
    (168, 218, 220),
    (141, 153, 174),
)


@cache
def _font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(_BOLD_TTF), size)


def initials(name: str) -> str:
    """ "María García López" -> "MG" (first letters of the first two words)."""
    words = [w for w in name.replace("-", " ").split() if w[:1].isalpha()]
    return "".join(w[0].upper() for w in words[:2]) or "?"


def initials_avatar(name: str, seed: int, size: int = 256) -> Image.Image:
    """A coloured disc with the person's initials."""
    rng = random.Random(seed)
    img = Image.new("RGB", (size, size), (255, 255, 255))
    draw = ImageDraw.Draw(img)
    draw.ellipse((0, 0, size - 1, size - 1), fill=rng.choice(PALETTE))
    text = initials(name)
    font = _font(int(size * 0.38))
    box = draw.textbbox((0, 0), text, font=font)
    x = (size - (box[2] - box[0])) / 2 - box[0]
    y = (size - (box[3] - box[1])) / 2 - box[1]
    draw.text((x, y), text, font=font, fill=(255, 255, 255))
    return img


def geometric_avatar(seed: int, size: int = 256) -> Image.Image:
    """Abstract art: overlapping circles, bars and triangles in a small palette."""
    rng = random.Random(seed)
    colours = rng.sample(PALETTE, 4)
    img = Image.new("RGB", (size, size), colours[0])
    draw = ImageDraw.Draw(img)
    for _ in range(rng.randint(5, 9)):
        colour = rng.choice(colours[1:])
        x, y = rng.randrange(size), rng.randrange(size)
        r = rng.randint(size // 10, size // 3)
        shape = rng.choice(("circle", "bar", "triangle"))
        if shape == "circle":
            draw.ellipse((x - r, y - r, x + r, y + r), fill=colour)
        elif shape == "bar":
            draw.rectangle((x - r, y - r // 4, x + r, y + r // 4), fill=colour)
        else:
            draw.polygon([(x, y - r), (x - r, y + r), (x + r, y + r)], fill=colour)
    return img


def make_avatar(name: str, seed: int, *, kind: str | None = None, size: int = 256) -> bytes:
    """A PNG profile image for ``name``; ``kind`` is "initials", "geometric" or None (seeded choice)."""
    rng = random.Random(f"avatar:{seed}")
    kind = kind or rng.choice(("initials", "initials", "geometric"))
    if kind == "initials":
        img = initials_avatar(name, seed, size)
    elif kind == "geometric":
        img = geometric_avatar(seed, size)
    else:
        raise ValueError(f"unknown avatar kind {kind!r}")
    buf = io.BytesIO()
    img.save(buf, format="PNG", optimize=False)
    return buf.getvalue()
