"""What a `trainer` subcommand imports: `deal verify` starts with the records alone (issue 25)."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]

UNUSED_BY_VERIFY = ("trainer.bots", "trainer.gouji.bots", "trainer.tracking", "trainer.signals", "trainer.referee",
                    "trainer.web", "multiprocessing", "concurrent.futures", "flask", "sqlmodel", "sqlalchemy")
"""Packages `deal verify` has no use for: neither it nor anything it imports may load them."""


def modules_after(*args: str) -> tuple[list[str], set[str]]:
    """Run `trainer ARGS` in a fresh interpreter as `python -m trainer` does; its output lines and the
    modules loaded when it returned."""
    code = ("import json, sys\n"
            "from trainer.cli import main\n"
            "status = main(sys.argv[1:])\n"
            "print(json.dumps([status, sorted(sys.modules)]))\n")
    done = subprocess.run([sys.executable, "-c", code, *args], cwd=REPO, capture_output=True, text=True,
                          encoding="utf-8", timeout=60, check=True)
    *lines, last = done.stdout.splitlines()
    status, modules = json.loads(last)
    assert status == 0, done.stderr
    return lines, set(modules)


def loaded(modules: set[str], package: str) -> list[str]:
    """The modules of `package` (itself or inside it) among `modules`."""
    return sorted(name for name in modules if name == package or name.startswith(package + "."))


@pytest.mark.parametrize("record", ["deal-2026-00000.json", "four-deck-2026-00000.json", "gouji-2026-00000.json"])
def test_deal_verify_imports_no_bots_processes_or_web(record: str) -> None:
    lines, modules = modules_after("deal", "verify", f"drills/deals/{record}")
    assert "is valid" in lines[0]
    assert "trainer.records" in modules
    assert {package: loaded(modules, package) for package in UNUSED_BY_VERIFY} == {
        package: [] for package in UNUSED_BY_VERIFY}


def test_deal_generate_still_loads_the_bots(tmp_path: Path) -> None:
    lines, modules = modules_after("deal", "generate", "--count", "1", "--bots", "random", "--out", str(tmp_path))
    assert lines == [f"wrote 1 deals to {tmp_path}"] and len(list(tmp_path.iterdir())) == 1
    assert "trainer.bots.generate" in modules and not loaded(modules, "trainer.web")
