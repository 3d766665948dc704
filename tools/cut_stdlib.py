"""The standard library cut to what the game needs (issue 14): Pyodide's python_stdlib.zip is 2.5 MB
(9.6 MB of source) and arrives in full on a first visit, although the engine imports a few dozen modules.

    python tools/cut_stdlib.py --audit    # find the modules: the engine test suite inside Pyodide
    python tools/cut_stdlib.py            # build vendor/python_stdlib-<sha>.zip (make site does this)
    python tools/cut_stdlib.py --verify   # prove it: the whole suite inside Pyodide on the cut archive

1. Audit (rarely: after the engine starts using a new stdlib module; ~5–10 min): tools/stdlib_audit.py
   runs the whole engine test suite (tests/) inside the real Pyodide runtime under node
   (tools/pyodide_node.mjs) and records every module an `import` statement asked for while engine code
   (kaltfront.*) was on the stack. The list is written to tools/stdlib-modules.txt and committed, so
   `make site` needs no test run.
2. Build (`make site`, a few seconds, cached by key): a fresh Pyodide imports the whole kaltfront
   package, plays the worker's bridge workload (every Blitz and Standard map against the computer) and
   imports the audited modules; every stdlib file then loaded, Pyodide's own start-up modules included,
   goes into the archive, stored uncompressed (the server's brotli then compresses across files, which
   beats per-file deflate). Then a smoke run on the CUT archive alone imports every engine module and
   plays the workload again: a module the audit missed fails `make site`, not the player's game; so
   does an `import` in kaltfront/ (found by reading the sources) whose module is not in the archive.
3. Verify (`make test`, e2e/test_pyodide_stdlib.py): the whole suite inside Pyodide with the cut
   archive first on sys.path and Pyodide's whole one behind it (pytest and hypothesis need more than
   the game); an import guard fails the run if engine code ever loads a module from the whole one.

pytest and hypothesis inside Pyodide come from pure-Python wheels downloaded from PyPI at build time
into build/pyodide-test-wheels/ (tools/pyodide-test-wheels.txt pins them). hypothesis 6.156 and later
ship a native extension only, so Pyodide runs 6.155.7, the newest pure-Python release; CPython keeps
the version pinned in pyproject.toml.
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import shutil
import subprocess
import sys
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYODIDE_NPM = ROOT / "node_modules" / "pyodide"
FULL_STDLIB = PYODIDE_NPM / "python_stdlib.zip"
MODULES_FILE = ROOT / "tools" / "stdlib-modules.txt"
TEST_WHEELS_FILE = ROOT / "tools" / "pyodide-test-wheels.txt"
TEST_WHEELS_DIR = ROOT / "build" / "pyodide-test-wheels"
CACHE_DIR = ROOT / "build" / "stdlib-cut"
RUNNER = ROOT / "tools" / "pyodide_node.mjs"
AUDIT_SCRIPT = ROOT / "tools" / "stdlib_audit.py"
ZIP_DATE = (1980, 1, 1, 0, 0, 0)
NODE_STACK_KB = 6000


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def run_in_pyodide(mode: str, *, stdlib: Path, wheels: list[Path], args: list[str] = (), repo: bool = False,
                   extra_path: list[Path] = (), load_package: list[Path] = (), timeout: float = 3600) -> dict:
    """Run tools/stdlib_audit.py MODE in Pyodide under node; its RESULT line as a dict (raises on failure)."""
    options = {
        "stdlib": str(stdlib),
        "wheels": [str(w) for w in wheels],
        "script": str(AUDIT_SCRIPT),
        "args": [mode, *args],
        "extraPath": [str(p) for p in extra_path],
        "loadPackage": [str(p) for p in load_package],
    }
    if repo:
        options["repo"] = str(ROOT)
    # A larger V8 stack than node's default (still below the 8 MB of a Linux main thread), for deep
    # but legitimate recursion; JSON nested 100 000 deep still overflows it (see stdlib_audit.py).
    proc = subprocess.run(["node", f"--stack-size={NODE_STACK_KB}", str(RUNNER), json.dumps(options)], cwd=ROOT, capture_output=True, text=True,
                          timeout=timeout)
    result = None
    for line in proc.stdout.splitlines():
        if line.startswith("RESULT "):
            result = json.loads(line[len("RESULT "):])
    if proc.returncode != 0 or result is None:
        # Pyodide prints its whole minified runtime with some errors; the tail says what went wrong.
        lines = [ln for ln in (proc.stdout + "\n" + proc.stderr).splitlines() if len(ln) < 400]
        tail = "\n".join(lines[-40:])
        raise RuntimeError(f"Pyodide run '{mode}' failed (exit {proc.returncode}):\n{tail[-6000:]}")
    return result


def test_wheels() -> list[Path]:
    """pytest, hypothesis and their dependencies as pure-Python wheels (downloaded once, then cached)."""
    pins = [line.split("#")[0].strip() for line in TEST_WHEELS_FILE.read_text(encoding="utf-8").splitlines()]
    pins = [p for p in pins if p]
    wanted = {p.split("==")[0].lower().replace("-", "_"): p for p in pins}
    have = {w.name.split("-")[0].lower(): w for w in TEST_WHEELS_DIR.glob("*.whl")} if TEST_WHEELS_DIR.is_dir() else {}
    missing = [pin for name, pin in wanted.items() if name not in have or f"-{pin.split('==')[1]}-" not in have[name].name]
    if missing:
        TEST_WHEELS_DIR.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "--disable-pip-version-check", "--quiet", "--no-deps",
             "--only-binary=:all:", "--platform", "any", "--implementation", "py", "--abi", "none",
             "--python-version", "3.14", "-d", str(TEST_WHEELS_DIR), *missing],
            check=True,
        )
        have = {w.name.split("-")[0].lower(): w for w in TEST_WHEELS_DIR.glob("*.whl")}
    return [have[name] for name in sorted(wanted)]


def audit(wheel: Path) -> list[str]:
    result = run_in_pyodide("audit", stdlib=FULL_STDLIB, wheels=[wheel, *test_wheels()], repo=True)
    if result["pytest"] != 0:
        raise SystemExit(f"cut_stdlib: the test suite failed inside Pyodide (pytest exit {result['pytest']})")
    modules = sorted(set(result["modules"]))
    header = (
        "# Standard-library modules the engine's code imports, recorded by tools/cut_stdlib.py --audit while\n"
        "# the whole engine test suite ran inside Pyodide (issue 14). Generated; rerun the audit, don't edit.\n"
    )
    MODULES_FILE.write_text(header + "".join(m + "\n" for m in modules), encoding="utf-8")
    return modules


def audited_modules() -> list[str]:
    lines = MODULES_FILE.read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


def source_imports() -> set[str]:
    """Top-level module names that kaltfront/'s sources import (every `import`, wherever it stands)."""
    names = set()
    for path in (ROOT / "kaltfront").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module)
    return {n for n in names if n.split(".")[0] != "kaltfront"}


def write_zip(files: list[str], target: Path) -> None:
    with zipfile.ZipFile(FULL_STDLIB) as full, zipfile.ZipFile(target, "w", zipfile.ZIP_STORED) as out:
        for name in sorted(files):
            info = zipfile.ZipInfo(name, ZIP_DATE)
            info.external_attr = 0o644 << 16
            out.writestr(info, full.read(name))


def build(vendor: Path, wheel: Path) -> dict:
    """Write vendor/python_stdlib-<sha12>.zip (removing older ones); returns {name, sha256, bytes, files}."""
    modules = audited_modules()
    key_src = json.dumps([sha256_bytes(FULL_STDLIB.read_bytes()), sha256_bytes(wheel.read_bytes()), modules,
                          sorted(source_imports()),
                          sha256_bytes(AUDIT_SCRIPT.read_bytes()), sha256_bytes(Path(__file__).read_bytes())])
    key = sha256_bytes(key_src.encode())[:16]
    cached = CACHE_DIR / f"{key}.zip"
    if not cached.exists():
        started = time.perf_counter()
        # The audited modules plus every module kaltfront/'s sources name: a new `import` in the engine
        # gets into the archive at the next `make site` even before the next audit.
        wanted = sorted(set(modules) | source_imports())
        # The wheel both ways pwa/worker.js installs it: unpackArchive (snapshot boot) and loadPackage.
        closure = run_in_pyodide("closure", stdlib=FULL_STDLIB, wheels=[wheel], load_package=[wheel], args=wanted)
        with zipfile.ZipFile(FULL_STDLIB) as full:
            present = set(full.namelist())
        files = sorted(f for f in closure["files"] if f in present)
        CACHE_DIR.mkdir(parents=True, exist_ok=True)
        tmp = cached.with_suffix(".tmp")
        sources = cached.with_suffix(".src")
        write_zip(files, sources)
        # Bytecode only (see "compile" in tools/stdlib_audit.py): no parser or compiler run at boot.
        compile_zip(sources, tmp, "stdlib")
        sources.unlink()
        check_source_imports(tmp)
        smoke = run_in_pyodide("smoke", stdlib=tmp, wheels=[wheel], load_package=[wheel])
        if smoke["maps"] != closure["maps"]:
            raise SystemExit("cut_stdlib: the smoke run on the cut archive played fewer maps")
        for old in CACHE_DIR.glob("*.zip"):
            old.unlink()
        tmp.replace(cached)
        print(f"cut_stdlib: {len(files)} files; audited, built and smoke-tested in {time.perf_counter() - started:.0f} s")
    data = cached.read_bytes()
    sha = sha256_bytes(data)
    name = f"python_stdlib-{sha[:12]}.zip"
    target = vendor / name
    if not target.exists() or sha256_bytes(target.read_bytes()) != sha:
        shutil.copyfile(cached, target.with_suffix(".tmp"))
        target.with_suffix(".tmp").replace(target)
    for old in vendor.glob("python_stdlib-*.zip"):
        if old != target:
            old.unlink()
    with zipfile.ZipFile(target) as z:
        count = len(z.namelist())
    return {"name": name, "sha256": sha, "bytes": len(data), "files": count}


def compile_zip(source: Path, target: Path, kind: str) -> None:
    """Byte-compile the .py members of `source` (under ROOT) into `target` inside Pyodide, with its Python."""
    inside = lambda p: "/repo/" + p.resolve().relative_to(ROOT).as_posix()  # noqa: E731 (NODEFS mount)
    run_in_pyodide("compile", stdlib=FULL_STDLIB, wheels=[], repo=True, args=[inside(source), inside(target), kind])
    if not target.is_file():
        raise SystemExit(f"cut_stdlib: compiling {source.name} wrote nothing")


def compiled_wheel(wheel: Path) -> Path:
    """The wheel with an unchecked-hash .pyc beside each module (cached by the source wheel's sha256)."""
    out = CACHE_DIR / "wheels" / f"{sha256_bytes(wheel.read_bytes())[:16]}-{sha256_bytes(AUDIT_SCRIPT.read_bytes())[:8]}" / wheel.name
    if not out.is_file():
        out.parent.parent.mkdir(parents=True, exist_ok=True)
        for old in out.parent.parent.iterdir():
            shutil.rmtree(old)
        out.parent.mkdir()
        source = out.with_suffix(".src")
        shutil.copyfile(wheel, source)
        compile_zip(source, out, "wheel")
        out.chmod(0o644)  # written through Pyodide's NODEFS, which leaves it world-writable
        source.unlink()
    return out


def check_source_imports(archive: Path) -> None:
    """Every module kaltfront/'s sources import must be in the archive, built in, or the engine's CLI."""
    with zipfile.ZipFile(archive) as z:
        present = {n.removesuffix("c")[:-3].replace("/", ".").removesuffix(".__init__")
                   for n in z.namelist() if n.endswith((".py", ".pyc"))}
    builtin = set(sys.builtin_module_names) | {"sys", "time", "math", "itertools", "_heapq", "posix"}
    with zipfile.ZipFile(FULL_STDLIB) as full:
        in_full = {n[:-3].replace("/", ".").removesuffix(".__init__") for n in full.namelist() if n.endswith(".py")}
    missing = sorted(m for m in source_imports() if m in in_full and m not in present and m not in builtin)
    if missing:
        raise SystemExit(
            "cut_stdlib: kaltfront imports modules missing from the cut standard library: "
            + ", ".join(missing) + "\nRun `python tools/cut_stdlib.py --audit` (make stdlib-audit) to record them."
        )


def verify(vendor: Path, wheel: Path) -> dict:
    cut = sorted(vendor.glob("python_stdlib-*.zip"))
    if len(cut) != 1:
        raise SystemExit("cut_stdlib: no cut archive in vendor/; run `make site`")
    return run_in_pyodide("verify", stdlib=cut[0], wheels=[wheel, *test_wheels()], repo=True,
                          extra_path=[FULL_STDLIB])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--audit", action="store_true", help="run the test suite in Pyodide, rewrite the module list")
    parser.add_argument("--verify", action="store_true", help="run the test suite in Pyodide on the cut archive")
    args = parser.parse_args(argv)
    vendor = ROOT / "vendor"
    wheels = sorted(vendor.glob("kaltfront-*.whl"))
    if len(wheels) != 1:
        raise SystemExit("cut_stdlib: run `make site` first (no kaltfront wheel in vendor/)")
    if args.audit:
        modules = audit(wheels[0])
        print(f"cut_stdlib: {len(modules)} modules recorded in {MODULES_FILE.relative_to(ROOT)}")
    if args.verify:
        result = verify(vendor, wheels[0])
        print(f"cut_stdlib: verify: pytest exit {result['pytest']}, violations {result['violations']}")
        return 1 if result["pytest"] or result["violations"] else 0
    if not args.audit:
        info = build(vendor, wheels[0])
        print(f"cut_stdlib: vendor/{info['name']}: {info['files']} files, {info['bytes']} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
