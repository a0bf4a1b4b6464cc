"""Draw the phone pages' home-screen icons (``scorekeeper/views/static/icon-*.png``) with
the standard library alone: a playing card with a red heart on the pages' green, the
same picture as ``icon.svg``. Run again only to change the picture:

    python scripts/make_icons.py
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

STATIC = Path(__file__).resolve().parent.parent / "scorekeeper" / "views" / "static"
GREEN = (11, 110, 79)
WHITE = (251, 251, 248)
RED = (179, 38, 30)


def colour(x: float, y: float) -> tuple[int, int, int]:
    """The picture at (x, y), both from 0 to 1 (the card and heart as in icon.svg)."""
    left, top, right, bottom, corner = 0.25, 0.15, 0.75, 0.85, 0.06
    inside_x = min(max(x, left + corner), right - corner)
    inside_y = min(max(y, top + corner), bottom - corner)
    if not (left <= x <= right and top <= y <= bottom) or \
            (x - inside_x) ** 2 + (y - inside_y) ** 2 > corner ** 2:
        return GREEN
    hx, hy = (x - 0.5) / 0.17, -(y - 0.49) / 0.17  # the heart's own axes, y up
    if (hx * hx + hy * hy - 1) ** 3 - hx * hx * hy ** 3 <= 0:
        return RED
    return WHITE


def png(size: int, samples: int = 3) -> bytes:
    """The picture as an RGB PNG of ``size`` pixels a side (``samples``² per pixel)."""
    rows = bytearray()
    for py in range(size):
        rows.append(0)  # no filter
        for px in range(size):
            total = [0, 0, 0]
            for sy in range(samples):
                for sx in range(samples):
                    got = colour((px + (sx + 0.5) / samples) / size,
                                 (py + (sy + 0.5) / samples) / size)
                    for i in range(3):
                        total[i] += got[i]
            rows.extend(round(t / samples ** 2) for t in total)

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(bytes(rows), 9)) + chunk(b"IEND", b""))


def main() -> None:
    for size in (192, 512):
        (STATIC / f"icon-{size}.png").write_bytes(png(size))


if __name__ == "__main__":
    main()
