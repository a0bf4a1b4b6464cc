"""The README is a user's guide (issue 29.4) whose commands work on a fresh machine as
written (issue 27.3): at most 400 lines, opening with the two commands, install and run
and install and run the tests, exactly as agreed, then the stress tests."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")

INSTALL_AND_RUN = (
    "$(command -v sudo) apt-get update && $(command -v sudo) apt-get install -y python3 "
    "python3-venv && python3 -m venv .venv && .venv/bin/pip install -e . && "
    ".venv/bin/score new least-score --player Ann --player Bob --player Cy --limit 50 && "
    ".venv/bin/score show"
)
INSTALL_AND_TEST = (
    "$(command -v sudo) apt-get update && $(command -v sudo) apt-get install -y python3 "
    "python3-venv chromium chromium-driver && python3 -m venv .venv && "
    ".venv/bin/pip install -e '.[test]' && .venv/bin/python -m pytest"
)
STRESS = ".venv/bin/pip install -e '.[test,ray]' && .venv/bin/python -m pytest -m slow -n 2"


def bash_blocks(text: str) -> list[str]:
    """The contents of the text's ```bash blocks, in order."""
    return re.findall(r"^```bash\n(.*?)^```$", text, flags=re.DOTALL | re.MULTILINE)


def test_the_readme_is_at_most_400_lines() -> None:
    assert len(README.splitlines()) <= 400, len(README.splitlines())


def test_the_readme_opens_with_the_two_commands_then_the_stress_tests() -> None:
    blocks = bash_blocks(README)
    assert blocks[:3] == [INSTALL_AND_RUN + "\n", INSTALL_AND_TEST + "\n", STRESS + "\n"]
    first_section = README.index("\n## ")
    assert README.index("```bash") < first_section  # before anything else is explained
    assert README.index(STRESS) < first_section


def test_the_readme_says_how_long_the_tests_take_and_that_ci_runs_them() -> None:
    opening = README[:README.index("\n## ")]
    assert "about 2 minutes" in opening
    assert "CI" in opening and ".ci/run" in opening


def test_the_readme_keeps_the_package_name_note() -> None:
    assert "`cardnight-scorekeeper`" in README
    assert "never `pip install scorekeeper`" in " ".join(README.split())


CI_RUN = ROOT / ".ci" / "run"


def ci_readme_block(number: int) -> str:
    """What .ci/run's own ``readme_block`` function takes from the README."""
    script = CI_RUN.read_text(encoding="utf-8")
    function = re.search(r"^readme_block\(\) \{\n.*?^\}\n", script, flags=re.DOTALL | re.MULTILINE)
    assert function, ".ci/run has no readme_block function"
    result = subprocess.run(["bash", "-c", f"{function.group(0)}\nreadme_block {number}"],
                            cwd=ROOT, capture_output=True, text=True, check=True)
    return result.stdout


@pytest.mark.e2e
def test_ci_runs_the_readmes_test_and_stress_commands_as_written() -> None:
    assert ci_readme_block(2) == INSTALL_AND_TEST + "\n"
    assert ci_readme_block(3) == STRESS + "\n"
    steps = [line.split("#")[0].strip() for line in CI_RUN.read_text(encoding="utf-8").splitlines()]
    assert "run_readme_block 2" in steps and "run_readme_block 3" in steps
