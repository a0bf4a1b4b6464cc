"""What the package index is told: the version, the license, the changelog.

``score --version`` reads the installed distribution's metadata, so it can't drift from
``pyproject.toml``; the LICENSE file is the license the metadata names.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from importlib.metadata import metadata, version
from pathlib import Path

import pytest
from deadlines import SCALE

DISTRIBUTION = "cardnight-scorekeeper"  # the name on the package index

ROOT = Path(__file__).resolve().parent.parent


def score_version(folder: Path, *, pythonpath: Path | None = None) -> str:
    """``python -m scorekeeper --version`` run in ``folder`` (not in the source tree, whose
    build leftovers, ``*.egg-info``, would be found on the path first)."""
    env = dict(os.environ)
    if pythonpath is not None:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, (str(pythonpath),
                                                          env.get("PYTHONPATH"))))
    result = subprocess.run([sys.executable, "-m", "scorekeeper", "--version"], env=env, cwd=folder,
                            capture_output=True, text=True, timeout=60 * SCALE, check=True)
    return result.stdout.strip()


@pytest.mark.e2e
def test_score_version_is_the_installed_metadata(tmp_path: Path) -> None:
    installed = version(DISTRIBUTION)
    assert installed == tomllib.loads((ROOT / "pyproject.toml").read_text(
        encoding="utf-8"))["project"]["version"]
    assert score_version(tmp_path) == f"scorekeeper {installed}"


@pytest.mark.e2e
def test_score_version_follows_the_metadata_not_a_copy_in_the_code(tmp_path: Path) -> None:
    """Another installed version of the distribution found first on the path is the one
    ``--version`` reports: it reads the metadata, it does not keep a number of its own."""
    info = tmp_path / "cardnight_scorekeeper-97.5.3.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        "Metadata-Version: 2.4\nName: cardnight-scorekeeper\nVersion: 97.5.3\n",
        encoding="utf-8")
    assert score_version(tmp_path, pythonpath=tmp_path) == "scorekeeper 97.5.3"


def test_the_license_file_is_the_license_the_metadata_names() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["license"] == "MIT"
    assert project["license-files"] == ["LICENSE"]
    assert metadata(DISTRIBUTION)["License-Expression"] == "MIT"
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License\n")
    assert "Permission is hereby granted, free of charge" in text
    assert re.search(r"^Copyright \(c\) \d{4} \S", text, re.MULTILINE)


def test_the_changelog_has_an_unreleased_section_and_this_version() -> None:
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    headings = re.findall(r"^## \[([^\]]+)\]", text, re.MULTILINE)
    assert headings[0] == "Unreleased"
    assert version(DISTRIBUTION) in headings
