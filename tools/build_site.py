"""Build vendor/: everything the browser needs besides the repository's own static files.

Run by `make site` with the project venv's Python (it needs `build` and `setuptools`, nothing else
beyond the standard library). It

1. builds the kaltfront wheel from a clean temporary copy of the sources (so a stale
   setuptools `build/` folder can never smuggle deleted modules into the wheel, and the work tree that
   other people are editing stays untouched) into `vendor/`;
2. copies the Pyodide runtime from `node_modules/pyodide/`: `pyodide.mjs` into `vendor/pyodide/`, the
   big `pyodide.asm.mjs` and `pyodide.asm.wasm` into `vendor/runtime-<sha12>/` (only the files a boot
   fetches: checked by recording every request in headless Chromium, see e2e/test_boot.py), and builds
   the cut standard library `vendor/python_stdlib-<sha12>.zip` (tools/cut_stdlib.py, issue 14);
3. writes `vendor/pyodide-lock.json`: Pyodide's own lockfile plus an entry for kaltfront with the
   wheel's real sha256, so the worker can `loadPackage("kaltfront")` integrity-checked;
4. writes `vendor/build-info.json` (wheel name, sha256, Pyodide and Python versions) for the page,
   the worker and the service worker.

How Pyodide 314 resolves `file_name` (read in node_modules/pyodide/pyodide.mjs and pyodide.asm.mjs):
a relative `file_name` is resolved with `new URL(file_name, packageBaseUrl)`; `packageBaseUrl`
defaults to the lockfile URL up to its last "/". It is NOT relative to `indexURL`. The base is used
as given, never resolved against the page, so `lockFileURL` must be an absolute URL (a relative
"../vendor/pyodide-lock.json" makes `new URL` throw "Invalid base URL" inside loadPackage). Hence
the wheel lies beside the lockfile in vendor/ and the worker passes
`new URL("../vendor/pyodide-lock.json", import.meta.url).href`.

The wheel is built with SOURCE_DATE_EPOCH fixed, so unchanged sources give a byte-identical wheel
and the same sha256: caches (HTTP, service worker) are not invalidated by a rebuild that changed
nothing.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import cut_stdlib

ROOT = Path(__file__).resolve().parent.parent
PYODIDE_NPM = ROOT / "node_modules" / "pyodide"
VENDOR = ROOT / "vendor"

# The files one boot fetches (see the module docstring); pyodide-lock.json is kept beside them so
# that `loadPyodide()` without options also works, e.g. in a quick manual test.
PYODIDE_RUNTIME_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "pyodide-lock.json",
)
# The two big runtime files live in vendor/runtime-<sha12>/, named by a hash of their bytes, so a
# host may cache them for a year (issue 12.9: the deploy folder's headers); pwa/worker.js finds the
# folder in build-info.json (`runtime_dir`, loadPyodide's indexURL). pyodide.mjs stays in
# vendor/pyodide/ because worker.js imports it statically; it is small and always revalidated.
# Pyodide's python_stdlib.zip is not shipped: tools/cut_stdlib.py builds vendor/python_stdlib-<sha12>.zip
# with only what the game needs (issue 14), passed as loadPyodide's stdLibURL.
HASHED_RUNTIME_FILES = ("pyodide.asm.mjs", "pyodide.asm.wasm")

# 1980-01-01 is the earliest date a zip entry can hold.
REPRODUCIBLE_EPOCH = "315532800"


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def project_version() -> str:
    import tomllib

    with (ROOT / "pyproject.toml").open("rb") as f:
        return tomllib.load(f)["project"]["version"]


def build_wheel(out_dir: Path) -> Path:
    """Build the wheel from a temporary copy of pyproject.toml, README.md and kaltfront/."""
    with tempfile.TemporaryDirectory(prefix="kaltfront-wheel-") as tmp:
        src = Path(tmp) / "src"
        src.mkdir()
        for name in ("pyproject.toml", "README.md"):
            if (ROOT / name).exists():
                shutil.copy2(ROOT / name, src / name)
        shutil.copytree(
            ROOT / "kaltfront",
            src / "kaltfront",
            ignore=shutil.ignore_patterns("__pycache__", "*.pyc", ".*"),
        )
        dist = Path(tmp) / "dist"
        env = dict(os.environ, SOURCE_DATE_EPOCH=REPRODUCIBLE_EPOCH)
        # --no-isolation: use this venv's pinned setuptools instead of downloading one per build.
        proc = subprocess.run(
            [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(dist), str(src)],
            env=env,
            capture_output=True,
            text=True,
        )
        if proc.returncode != 0:
            # Show the backend's own words only when it failed; a good build is one line below.
            sys.stderr.write(proc.stdout + proc.stderr)
            raise SystemExit(f"build_site: building the kaltfront wheel failed (exit {proc.returncode})")
        wheels = sorted(dist.glob("kaltfront-*.whl"))
        if len(wheels) != 1:
            raise SystemExit(f"build_site: expected one kaltfront wheel, got {wheels}")
        target = out_dir / wheels[0].name
        # With bytecode beside each module (issue 14: importing the engine then runs no compiler in the
        # browser), cached by the source wheel's hash, so unchanged sources keep a byte-identical wheel.
        built = cut_stdlib.compiled_wheel(wheels[0])
        # Leave an identical wheel alone (the build is reproducible), and replace a changed one
        # atomically: `make play` may be serving it right now.
        if not target.exists() or sha256_of(target) != sha256_of(built):
            tmp_target = target.with_suffix(".whl.tmp")
            shutil.copy2(built, tmp_target)
            tmp_target.replace(target)
        for old in out_dir.glob("kaltfront-*.whl"):
            if old != target:
                old.unlink()
        return target


def copy_if_changed(src: Path, dst: Path) -> None:
    # Copy only when changed: the runtime is 11 MB and rarely changes.
    if not dst.exists() or dst.stat().st_size != src.stat().st_size or sha256_of(dst) != sha256_of(src):
        tmp = dst.with_name(dst.name + ".tmp")
        shutil.copy2(src, tmp)
        tmp.replace(dst)


def copy_runtime(dest: Path) -> str:
    """pyodide.mjs and Pyodide's lockfile into dest; the big files into vendor/runtime-<sha12>/."""
    if not PYODIDE_NPM.is_dir():
        raise SystemExit("build_site: node_modules/pyodide is missing; run `make node_modules` (npm ci) first")
    dest.mkdir(parents=True, exist_ok=True)
    for name in PYODIDE_RUNTIME_FILES:
        if name not in HASHED_RUNTIME_FILES:
            copy_if_changed(PYODIDE_NPM / name, dest / name)
    for stale in (*HASHED_RUNTIME_FILES, "python_stdlib.zip"):  # the layout before issue 14
        (dest / stale).unlink(missing_ok=True)
    digest = hashlib.sha256()
    for name in HASHED_RUNTIME_FILES:
        digest.update(name.encode() + b"\0" + sha256_of(PYODIDE_NPM / name).encode() + b"\n")
    runtime_dir = f"runtime-{digest.hexdigest()[:12]}"
    (VENDOR / runtime_dir).mkdir(exist_ok=True)
    for name in HASHED_RUNTIME_FILES:
        copy_if_changed(PYODIDE_NPM / name, VENDOR / runtime_dir / name)
    for old in VENDOR.glob("runtime-*"):
        if old.name != runtime_dir and old.is_dir():
            shutil.rmtree(old)
    return runtime_dir


def write_lockfile(wheel: Path, version: str, pyodide_lock: dict) -> dict:
    entry = {
        "name": "kaltfront",
        "version": version,
        # Relative to the lockfile's own folder (Pyodide's packageBaseUrl), see the docstring.
        "file_name": wheel.name,
        "install_dir": "site",
        "sha256": sha256_of(wheel),
        "package_type": "package",
        "imports": ["kaltfront"],
        "depends": [],
        "unvendored_tests": False,
    }
    lock = dict(pyodide_lock)
    lock["packages"] = dict(pyodide_lock["packages"])
    lock["packages"]["kaltfront"] = entry
    write_json(VENDOR / "pyodide-lock.json", lock)
    return entry


def write_json(path: Path, data: dict) -> None:
    # Write to a temporary name first: `make play` may be serving the file while we rebuild.
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    tmp.replace(path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.parse_args(argv)
    started = time.perf_counter()
    VENDOR.mkdir(exist_ok=True)
    runtime_dir = copy_runtime(VENDOR / "pyodide")
    pyodide_pkg = json.loads((PYODIDE_NPM / "package.json").read_text(encoding="utf-8"))
    pyodide_lock = json.loads((PYODIDE_NPM / "pyodide-lock.json").read_text(encoding="utf-8"))
    version = project_version()
    wheel = build_wheel(VENDOR)
    entry = write_lockfile(wheel, version, pyodide_lock)
    stdlib = cut_stdlib.build(VENDOR, wheel)
    info = {
        "kaltfront_version": version,
        "wheel": wheel.name,
        "wheel_sha256": entry["sha256"],
        "wheel_bytes": wheel.stat().st_size,
        "pyodide_version": pyodide_pkg["version"],
        "python_version": pyodide_lock["info"]["python"],
        "pyodide_files": list(PYODIDE_RUNTIME_FILES),
        # Relative to vendor/: loadPyodide's indexURL and stdLibURL (pwa/worker.js).
        "runtime_dir": runtime_dir + "/",
        "stdlib": stdlib["name"],
        "stdlib_sha256": stdlib["sha256"],
        "stdlib_bytes": stdlib["bytes"],
        # What one boot of pwa/worker.js fetches, relative to the site root (recorded in Chromium):
        # the list a service worker must precache for the engine to start offline.
        "boot_files": [
            "pwa/engine.js",
            "pwa/worker.js",
            "vendor/pyodide/pyodide.mjs",
            *(f"vendor/{runtime_dir}/{name}" for name in HASHED_RUNTIME_FILES),
            f"vendor/{stdlib['name']}",
            "vendor/pyodide-lock.json",
            f"vendor/{wheel.name}",
            "vendor/build-info.json",
        ],
    }
    # For the first visit's progress bar (issue 11.5): what the worker fetches (the modules it imports
    # are not counted), and the scenario names, so a share link can say what it starts before Python runs.
    info["fetch_bytes"] = sum((ROOT / f).stat().st_size for f in info["boot_files"]
                              if not f.endswith((".js", ".mjs")) and f != "vendor/build-info.json")
    sys.path.insert(0, str(ROOT))
    from kaltfront import scenarios

    info["scenarios"] = [{"id": s["id"], "name": s["name"], "blitz": s["blitz"]} for s in scenarios()]
    write_json(VENDOR / "build-info.json", info)
    print(
        f"build_site: vendor/{wheel.name} ({info['wheel_bytes']} bytes, sha256 {entry['sha256'][:12]}…), "
        f"Pyodide {info['pyodide_version']} (Python {info['python_version']}), "
        f"vendor/{stdlib['name']} ({stdlib['files']} files, {stdlib['bytes']} bytes) "
        f"in {time.perf_counter() - started:.1f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
