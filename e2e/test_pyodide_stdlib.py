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
        # Bytecode only (issue 14: a boot that compiles source runs CPython's compiler in WebAssembly).
        assert "json/__init__.pyc" in names and "pyodide/__init__.pyc" in names
        assert not any(n.endswith(".py") for n in names)
        assert not any(n.startswith(("unittest/", "pydoc_data/", "idlelib/", "tkinter/", "test/")) for n in names)


def test_the_wheel_carries_unchecked_bytecode_beside_every_module(wheel):
    """Issue 14: importing the engine in the browser compiles nothing; the sources stay for tracebacks."""
    with zipfile.ZipFile(wheel) as whl:
        names = set(whl.namelist())
        modules = sorted(n for n in names if n.startswith("kaltfront/") and n.endswith(".py"))
        assert len(modules) > 10
        for module in modules:
            folder, _, base = module.rpartition("/")
            pyc = f"{folder}/__pycache__/{base[:-3]}.cpython-314.pyc"
            assert pyc in names, f"{module} has no bytecode in the wheel"
            header = whl.read(pyc)[:16]
            # PEP 552: flags 0b01 = hash-based and unchecked, so no source mtime can make it stale.
            assert int.from_bytes(header[4:8], "little") == 0b01, pyc
        record = whl.read(next(n for n in names if n.endswith(".dist-info/RECORD"))).decode()
        assert all(f"{folder}/__pycache__/" in record for folder in {m.rpartition("/")[0] for m in modules})


def test_whole_engine_suite_is_green_inside_pyodide_on_the_cut_archive(wheel):
    result = cut_stdlib.verify(ROOT / "vendor", wheel)
    assert result["violations"] == [], f"engine code imported modules missing from the cut archive: {result['violations']}"
    assert result["pytest"] == 0
