"""A QR code drawn with text, for a phone's camera to read off the terminal.

segno (pure Python, no dependencies, typed) builds the code; each line of text carries two
rows of modules as half blocks, so the code is square on screen. The text is meant to be
shown dark on light, as on paper: the command that prints it asks the terminal for black on
white, so it scans on dark terminals too.
"""

from __future__ import annotations

import segno

QUIET_ZONE = 4
"""Light modules around the code: the size the QR standard asks for."""

# (top module dark, bottom module dark) -> the character that draws them
_HALF_BLOCKS = {(False, False): " ", (True, False): "▀", (False, True): "▄", (True, True): "█"}


def modules(data: str) -> list[list[bool]]:
    """The code's modules (True = dark), quiet zone included."""
    code = segno.make_qr(data, error="m")
    return [[bool(module) for module in row] for row in code.matrix_iter(border=QUIET_ZONE)]


def text_lines(data: str) -> list[str]:
    """The QR code of ``data`` as lines of half-block characters (dark = ink)."""
    rows = modules(data)
    if len(rows) % 2:
        rows.append([False] * len(rows[0]))
    return ["".join(_HALF_BLOCKS[top, bottom] for top, bottom in zip(upper, lower, strict=True))
            for upper, lower in zip(rows[::2], rows[1::2], strict=True)]
