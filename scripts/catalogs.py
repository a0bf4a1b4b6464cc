"""The gettext round trip over every domain: the generic one and each game's own.

    python scripts/catalogs.py extract   # the templates (.pot) from the code
    python scripts/catalogs.py update    # each .po from its template (new entries empty)
    python scripts/catalogs.py compile   # each .mo from its .po
    python scripts/catalogs.py all       # the three in turn

The generic domain, ``scorekeeper``, is every module of ``scorekeeper/`` but the games'
folders (babel.cfg); each game folder with a ``words.py`` (``scorekeeper/games/<game>/``,
and the test suite's game packages, ``tests/<package>/<game>/``) is a domain named after its
folder, extracted from that folder alone into its ``locale/``. docs/translating.md has
the same commands one by one. Typer's own ``messages`` domain is not touched here.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KEYWORDS = ["--no-default-keywords", "-k", "_", "-k", "N_", "-k", "ngettext:1,2",
            "-k", "pgettext:1c,2"]
COMMON = ["--add-comments=TRANSLATORS:", "--add-location=file", "--sort-output"]


@dataclass(frozen=True)
class Domain:
    name: str
    sources: Path
    """The folder extracted (the generic domain: the root, with babel.cfg's map)."""
    locale: Path
    mapping: Path | None = None

    @property
    def template(self) -> Path:
        return self.locale / f"{self.name}.pot"


def domains() -> list[Domain]:
    """The generic domain, then each game folder's, in path order."""
    found = [Domain("scorekeeper", ROOT, ROOT / "scorekeeper" / "locale", ROOT / "babel.cfg")]
    for words in sorted([*ROOT.glob("scorekeeper/games/*/words.py"),
                         *ROOT.glob("tests/*/*/words.py")]):
        found.append(Domain(words.parent.name, words.parent, words.parent / "locale"))
    return found


def pybabel(*args: str | Path) -> None:
    """``pybabel ARGS`` run from the repository's root."""
    subprocess.run([sys.executable, "-c", "import sys; from babel.messages.frontend import "
                    "main; sys.argv[0] = 'pybabel'; sys.exit(main())", *map(str, args)],
                   check=True, cwd=ROOT)


def extract(domain: Domain) -> None:
    mapping: list[str | Path] = ["-F", domain.mapping] if domain.mapping else []
    source = "." if domain.sources == ROOT else domain.sources.relative_to(ROOT)
    pybabel("extract", *mapping, *KEYWORDS, *COMMON, f"--project={domain.name}",
            "-o", domain.template.relative_to(ROOT), source)


def languages(domain: Domain) -> list[str]:
    return sorted(folder.name for folder in domain.locale.iterdir()
                  if (folder / "LC_MESSAGES" / f"{domain.name}.po").is_file())


def update(domain: Domain) -> None:
    if languages(domain):
        pybabel("update", "-D", domain.name, "-i", domain.template, "-d", domain.locale,
                "--ignore-obsolete")


def compile_(domain: Domain) -> None:
    if languages(domain):
        pybabel("compile", "-D", domain.name, "-d", domain.locale, "--statistics")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("step", choices=["extract", "update", "compile", "all"])
    step = parser.parse_args().step
    for domain in domains():
        if step in ("extract", "all"):
            extract(domain)
        if step in ("update", "all"):
            update(domain)
        if step in ("compile", "all"):
            compile_(domain)


if __name__ == "__main__":
    main()
