"""Games installed where the registry's fast reader of ``*.dist-info`` folders can't look
(issue 41.7): a zip file on the path (a zipapp, a zipped egg) and an egg's folder (its
metadata in ``EGG-INFO``). importlib.metadata finds their entry points; so does
``registry.entry_points``, which asks importlib.metadata for exactly those entries, and
``score`` lists and plays the game installed so.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import Result, games_from
from deadlines import deadline

Run = Callable[..., Result]


def _dist_info(installed: Path) -> Path:
    [info] = installed.glob("scorekeeper_high_card-*.dist-info")
    return info


def zipped(installed: Path, target: Path) -> Path:
    """High Card and its dist-info in one zip file, as a zipapp carries them."""
    with zipfile.ZipFile(target, "w") as archive:
        for folder in (installed / "high_card", _dist_info(installed)):
            for path in sorted(folder.rglob("*")):
                if path.is_file() and "__pycache__" not in path.parts:
                    archive.write(path, path.relative_to(installed).as_posix())
    return target


def egg_folder(installed: Path, target: Path) -> Path:
    """High Card as an egg's folder: its package, and its metadata in ``EGG-INFO``."""
    shutil.copytree(installed / "high_card", target / "high_card",
                    ignore=shutil.ignore_patterns("__pycache__"))
    info = _dist_info(installed)
    (target / "EGG-INFO").mkdir()
    shutil.copyfile(info / "METADATA", target / "EGG-INFO" / "PKG-INFO")
    shutil.copyfile(info / "entry_points.txt", target / "EGG-INFO" / "entry_points.txt")
    return target


MAKERS = {"zip": lambda installed, base: zipped(installed, base / "games.pyz"),
          "egg": lambda installed, base: egg_folder(
              installed, base / "scorekeeper_high_card-0.1.0-py3.11.egg")}


def _both_readings(entry: Path) -> tuple[list[list[str]], list[list[str]]]:
    code = ("import json\n"
            "from importlib import metadata\n"
            "from scorekeeper.registry import entry_points\n"
            "ours = sorted([p.name, p.value] for p in entry_points())\n"
            "theirs = sorted([p.name, p.value] for p in "
            "metadata.entry_points(group='scorekeeper.games'))\n"
            "print(json.dumps([ours, theirs]))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, timeout=deadline(120),
                          env={**os.environ, "PYTHONPATH": str(entry)})
    ours, theirs = json.loads(done.stdout.strip().splitlines()[-1])
    return ours, theirs


@pytest.mark.e2e
@pytest.mark.parametrize("kind", sorted(MAKERS))
def test_the_registry_reads_what_importlib_metadata_finds(
        kind: str, installed_games: dict[str, Path], tmp_path: Path) -> None:
    entry = MAKERS[kind](installed_games["third_game"], tmp_path)
    ours, theirs = _both_readings(entry)
    assert ["high-card", "high_card.game:GAME"] in theirs  # the case is a real one
    assert ours == theirs


@pytest.mark.e2e
@pytest.mark.parametrize("kind", sorted(MAKERS))
def test_score_lists_and_scores_a_game_installed_so(
        kind: str, installed_games: dict[str, Path], tmp_path: Path,
        score_run: Run) -> None:
    entry = MAKERS[kind](installed_games["third_game"], tmp_path)
    env = {"PYTHONPATH": str(entry), **games_from("scorekeeper-high-card")}
    listed = score_run("games", env=env)
    assert listed.exit_code == 0 and "high-card" in listed.stdout, listed
    assert listed.stderr == "", listed.stderr
    started = score_run("new", "high-card", "-p", "Ann", "-p", "Bob", env=env)
    assert started.exit_code == 0, started
