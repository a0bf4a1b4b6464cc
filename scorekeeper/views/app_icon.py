"""What makes a phone page one people keep (issue 40.6): the web app manifest, so "Add
to Home Screen" gives the page its own icon and name and opens it full screen at its own
address (a seat's page, ``score serve``'s live page), and the icons (``static/icon*``,
drawn by ``scripts/make_icons.py``)."""

from __future__ import annotations

import html
import json
from importlib import resources

from scorekeeper import i18n
from scorekeeper.views.export import right_to_left

MANIFEST = "manifest.webmanifest"
MANIFEST_TYPE = "application/manifest+json; charset=utf-8"
ICONS = {
    "icon.svg": "image/svg+xml",
    "icon-192.png": "image/png",
    "icon-512.png": "image/png",
}
"""The icon files, by name, with their content types (all in ``views/static``)."""
THEME = "#0b6e4f"
"""The pages' green (``--accent`` of the light scheme)."""


def icon(name: str) -> bytes:
    """One of the icon files (``ICONS``), shipped in the package."""
    return (resources.files("scorekeeper") / "views" / "static" / name).read_bytes()


def manifest(name: str) -> bytes:
    """The manifest of the page whose folder it is served in: ``start_url`` and ``scope``
    are that folder (the page's own tokened address), ``name`` what its icon is called,
    in the language spoken."""
    return json.dumps({
        "name": name,
        "short_name": name if len(name) <= 12 else "Scorekeeper",
        "lang": i18n.active_language(),
        "dir": "rtl" if right_to_left() else "ltr",
        "start_url": "./",
        "scope": "./",
        "display": "standalone",
        "background_color": "#fbfbf8",
        "theme_color": THEME,
        "icons": [
            {"src": "icon.svg", "sizes": "any", "type": "image/svg+xml"},
            {"src": "icon-192.png", "sizes": "192x192", "type": "image/png"},
            {"src": "icon-512.png", "sizes": "512x512", "type": "image/png",
             "purpose": "any"},
        ],
    }, ensure_ascii=False, indent=1).encode("utf-8")


def head_links() -> list[str]:
    """The head's lines that name the manifest and the icons (relative to ``<base>``)."""
    return [
        f'<link rel="manifest" href="{MANIFEST}">',
        '<link rel="icon" href="icon.svg" type="image/svg+xml">',
        '<link rel="apple-touch-icon" href="icon-192.png">',
        f'<meta name="theme-color" content="{html.escape(THEME)}">',
    ]
