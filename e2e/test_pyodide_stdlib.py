"""Issue 14: the cut standard library carries the whole engine.

The engine's complete test suite (tests/) runs inside the real Pyodide runtime under node
(tools/pyodide_node.mjs) with the cut archive vendor/python_stdlib-<sha>.zip that `make site` built,
first on sys.path; Pyodide's whole archive sits behind it only because pytest and hypothesis need
modules the game does not. An import guard (tools/stdlib_audit.py, "verify") records every module that
engine code loaded from the whole archive: there must be none, and every test must pass. No browser;
minutes of CPU (about 2.5 under Pyodide on one core), which is why it is one test. Left out inside
Pyodide: tests/test_fuzz_doors.py and one campaign test, whose JSON nested 50 000–100 000 deep is a fatal
stack overflow in Pyodide (not a RecursionError as under CPython); tools/stdlib_audit.py says why.
"""

from __future__ import annotations

import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import cut_stdlib  # noqa: E402


@pytest.fixture(scope="module")
def wheel() -> Path:
    wheels = sorted((ROOT / "vendor").glob("kaltfront-*.whl"))
    if len(wheels) != 1 or not sorted((ROOT / "vendor").glob("python_stdlib-*.zip")):
        pytest.fail("vendor/ has no wheel or no cut standard library: run `make site`")
    return wheels[0]


def test_the_cut_archive_is_small_and_holds_no_test_machinery():
    (archive,) = sorted((ROOT / "vendor").glob("python_stdlib-*.zip"))
    with zipfile.ZipFile(archive) as cut, zipfile.ZipFile(cut_stdlib.FULL_STDLIB) as full:
        names = set(cut.namelist())
        assert len(names) < len(full.namelist()) / 2
        assert "json/__init__.py" in names and "pyodide/__init__.py" in names
        assert not any(n.startswith(("unittest/", "pydoc_data/", "idlelib/", "tkinter/", "test/")) for n in names)


def test_whole_engine_suite_is_green_inside_pyodide_on_the_cut_archive(wheel):
    result = cut_stdlib.verify(ROOT / "vendor", wheel)
    assert result["violations"] == [], f"engine code imported modules missing from the cut archive: {result['violations']}"
    assert result["pytest"] == 0
