"""The project's shape as the design card gives it (P6) and the package decisions of D11."""

import json
import pathlib
import tomllib

ROOT = pathlib.Path(__file__).resolve().parent.parent


def test_p6_top_level_layout():
    """P6: pyproject.toml, README.md, index.html, pwa/, kaltfront/, service-worker.js, manifest.json,
    tests/, e2e/ at the top."""
    for name in ("pyproject.toml", "README.md", "index.html", "service-worker.js", "manifest.json"):
        assert (ROOT / name).is_file(), name
    for name in ("pwa", "kaltfront", "tests", "e2e"):
        assert (ROOT / name).is_dir(), name


def test_p6_d11_packages_pinned_and_used():
    """P6/D11: pyodide pinned exactly from npm; pytest and playwright in the test tools; the engine
    itself has no runtime dependency; neither PyScript nor micropip is loaded by the app."""
    package = json.loads((ROOT / "package.json").read_text())
    version = package["dependencies"]["pyodide"]
    assert version[0].isdigit(), f"pyodide must be pinned exactly, not {version!r}"
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["dependencies"] == []
    tools = " ".join(project["optional-dependencies"]["test"])
    assert "pytest==" in tools and "playwright==" in tools
    for path in [ROOT / "index.html", ROOT / "service-worker.js", *(ROOT / "pwa").rglob("*.js")]:
        text = path.read_text(encoding="utf-8").lower()
        assert "pyscript" not in text and "micropip" not in text, path
