"""Pin every direct dependency at its floor: pip constraints made from pyproject.toml.

    python scripts/floor_constraints.py [--extra test] > floors.txt
    python -m pip install -c floors.txt -e '.[test]'

Each requirement of ``[project] dependencies`` and of the extras named (default: the
test extra) becomes ``name==floor``, the floor being its ``>=`` bound: installed with
these constraints, the project runs on the oldest versions its metadata admits, which
is what ``.ci/run`` tests the default suite on (issue 27: floors that hold). A
requirement without a ``>=`` floor is an error: every direct dependency has one.
Read from pyproject.toml itself, so a dependency added there is pinned here too.
"""

from __future__ import annotations

import argparse
import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

_REQUIREMENT = re.compile(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[[^\]]*\])?\s*([^;]*)(?:;.*)?")


def floor_of(requirement: str) -> tuple[str, str]:
    """``("typer", "0.29.0")`` for ``"typer>=0.29.0"`` (ValueError when it has no floor).

    >>> floor_of("rich>=13.8,<16"), floor_of("zxing-cpp >= 2.2 ; python_version>'3'")
    (('rich', '13.8'), ('zxing-cpp', '2.2'))
    """
    found = _REQUIREMENT.fullmatch(requirement)
    if found is None:
        raise ValueError(f"can't read the requirement {requirement!r}")
    name, specifiers = found.group(1), found.group(2)
    floors = [spec.strip()[2:].strip() for spec in specifiers.split(",")
              if spec.strip().startswith(">=")]
    if len(floors) != 1:
        raise ValueError(f"{requirement!r} has no single >= floor")
    return name, floors[0]


def floors(pyproject: Path, extras: list[str]) -> list[tuple[str, str]]:
    """The floor of every requirement of the project and of ``extras``, in order."""
    project = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]
    requirements = list(project.get("dependencies", []))
    optional = project.get("optional-dependencies", {})
    for extra in extras:
        if extra not in optional:
            raise ValueError(f"pyproject.toml has no extra {extra!r}")
        requirements += optional[extra]
    return [floor_of(requirement) for requirement in requirements]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--extra", action="append", default=None,
                        help="an extra whose requirements are pinned too (default: test)")
    parser.add_argument("--pyproject", type=Path, default=ROOT / "pyproject.toml")
    args = parser.parse_args()
    try:
        found = floors(args.pyproject, ["test"] if args.extra is None else args.extra)
    except ValueError as problem:
        raise SystemExit(f"error: {problem}") from None
    sys.stdout.write("".join(f"{name}=={version}\n" for name, version in found))


if __name__ == "__main__":
    main()
