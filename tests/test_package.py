"""What the package index is told: the version, the license, the changelog.

``score --version`` reads the installed distribution's metadata, so it can't drift from
``pyproject.toml``; the LICENSE file is the license the metadata names.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
import zipfile
from importlib.metadata import metadata, version
from pathlib import Path
from typing import Any

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


def _project() -> dict[str, Any]:
    project: dict[str, Any] = tomllib.loads(
        (ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return project


def test_the_summary_and_keywords_say_what_it_does() -> None:
    """A stranger on the index reads the summary and the keywords: every game the package
    installs, a group's own points games, the phones and the virtual deck."""
    project = _project()
    summary = project["description"]
    games = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))[
        "project"]["entry-points"]["scorekeeper.games"]
    titles = {"least-score": "Least Score", "hearts": "Hearts", "points": "Points",
              "one-card": "One Card", "yaniv": "Yaniv", "oh-hell": "Oh Hell"}
    assert set(games) == set(titles)
    for title in titles.values():
        assert title in summary
    assert "six games" in summary and "points game" in summary
    assert "phone" in summary and "virtual deck" in summary
    keywords = set(project["keywords"])
    assert {"virtual deck", "phones", "points game", "card games"} <= keywords
    assert metadata(DISTRIBUTION)["Summary"] == summary


def test_the_classifiers_name_what_it_is_tested_on() -> None:
    """The Python versions the suite runs on (CI's), the system, the three languages of
    its catalogs, and a development status."""
    classifiers = set(_project()["classifiers"])
    versions = {entry.rsplit(" :: ", 1)[1] for entry in classifiers
                if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", entry)}
    assert f"{sys.version_info.major}.{sys.version_info.minor}" in versions
    assert _project()["requires-python"] == f">={min(versions, key=lambda v: int(v[2:]))}"
    assert any(entry.startswith("Operating System :: ") for entry in classifiers)
    assert any(entry.startswith("Development Status :: ") for entry in classifiers)
    languages = {entry.rsplit(" :: ", 1)[1] for entry in classifiers
                 if entry.startswith("Natural Language :: ")}
    shipped = {path.parent.parent.name for path in
               (ROOT / "scorekeeper" / "locale").glob("*/LC_MESSAGES/scorekeeper.po")}
    names = {"da": "Danish", "ar": "Arabic"}
    assert languages == {"English"} | {names[code] for code in shipped}


@pytest.mark.e2e
def test_the_wheel_holds_no_catalog_sources(tmp_path: Path) -> None:
    """The wheel ships the compiled catalogs `score` reads, not their sources (.po/.pot,
    which stay in the sdist for translators); built from the tracked files, as
    .ci/package-check does."""
    tracked = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, check=True,
                             capture_output=True, text=True).stdout.split("\0")
    source = tmp_path / "src"
    for path in filter(None, tracked):
        if path.startswith(".ci/") or not (ROOT / path).is_file():
            continue
        (source / path).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(ROOT / path, source / path)
    out = tmp_path / "dist"
    subprocess.run([sys.executable, "-m", "build", "--wheel", "--outdir", str(out),
                    str(source)], check=True, capture_output=True, timeout=600 * SCALE)
    [wheel] = out.glob("*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
    assert [name for name in names if name.endswith((".po", ".pot"))] == []
    compiled = [name for name in names if name.endswith(".mo")]
    sources = [path for path in filter(None, tracked) if path.endswith(".po")
               and path.startswith("scorekeeper/")]
    assert len(compiled) == len(sources) > 0
    assert "scorekeeper/locale/da/LC_MESSAGES/scorekeeper.mo" in names
