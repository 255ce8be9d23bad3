"""A positioned line of PDF text, and the geometry shared by reading order and row merging."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class TextLine:
    """One line of text with its position and typography (bbox in PDF points, page 0-based)."""

    text: str
    page: int
    bbox: tuple[float, float, float, float]
    size: float
    bold: bool
    font: str = ""
    column: int = 0  # 0 = full width / single column, 1 = left, 2 = right
    flags: dict = field(default_factory=dict)

    @property
    def x0(self) -> float:
        """Left edge."""
        return self.bbox[0]

    @property
    def x1(self) -> float:
        """Right edge."""
        return self.bbox[2]

    @property
    def y0(self) -> float:
        """Top edge."""
        return self.bbox[1]

    @property
    def y1(self) -> float:
        """Bottom edge."""
        return self.bbox[3]

    @property
    def height(self) -> float:
        """Line height."""
        return max(1.0, self.bbox[3] - self.bbox[1])

    @property
    def yc(self) -> float:
        """Vertical centre."""
        return (self.bbox[1] + self.bbox[3]) / 2


def same_row(a: TextLine, b: TextLine) -> bool:
    """True when two lines sit on one visual row (overlapping, centres close)."""
    overlap = min(a.y1, b.y1) - max(a.y0, b.y0)
    return overlap > 0.5 * min(a.height, b.height) and abs(a.yc - b.yc) < 0.5 * max(a.height, b.height)
