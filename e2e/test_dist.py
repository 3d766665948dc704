"""`make dist` (issue 12.9) and compressed transfer (issue 14): the deploy folder holds exactly the app,
its headers file says what static hosts must send, and the app boots, plays and works offline when
served from it, with brotli on the wire and the service worker's sha256 checks on the decoded bytes.

The module builds its own dist/ in a temporary folder with tools/build_dist.py (compressed copies come
from build/compressed/, so only the first build on a machine pays for brotli at quality 11) and serves
it with tools/serve.py --root, as `make play DIST=1` does.
"""

from __future__ import annotations

import gzip
import hashlib
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from offline_helpers import fast, play_a_turn, precache, start_blitz_from_menu, wait_offline_ready

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import build_dist  # noqa: E402
from site_headers import CSP_HEADER, compressible  # noqa: E402


@pytest.fixture(scope="module")
def dist(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("deploy") / "dist"
    build_dist.build(out)
    return out


@pytest.fixture(scope="module")
def dist_url(dist, tmp_path_factory):
    log = (tmp_path_factory.mktemp("dist-server") / "serve.log").open("w")
    proc = subprocess.Popen([sys.executable, str(ROOT / "tools" / "serve.py"), "--port", "0", "--root", str(dist)],
                            stdout=subprocess.PIPE, stderr=log, text=True, cwd=ROOT)
    line = proc.stdout.readline()
    if not line.startswith("Kaltfront: http"):
        proc.kill()
        pytest.fail(f"tools/serve.py --root dist did not start: {line!r}")
    try:
        yield line.split(": ", 1)[1].strip()
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_dist_holds_exactly_the_precache_list(dist):
    """12.9: the precache list, the service worker and its list, the headers file, compressed copies."""
    listed = {e["url"] for e in precache()["files"]} | {"service-worker.js", "vendor/sw-manifest.js"}
    files = {p.relative_to(dist).as_posix() for p in dist.rglob("*") if p.is_file()}
    copies = {f for f in files if f.endswith((".br", ".gz"))}
    assert files - copies == listed | {"_headers"}
    assert {f.rsplit(".", 1)[0] for f in copies} <= listed
    for f in files:
        assert not f.startswith(("tests/", "tools/", "e2e/", "kaltfront/", "node_modules/", ".")), f
        assert not f.endswith((".py", ".toml", ".md")), f
    for url in listed:
        assert (dist / url).read_bytes() == (ROOT / url).read_bytes(), url


def test_large_files_have_brotli_and_gzip_copies_of_the_same_bytes(dist):
    """14: .br and .gz beside each large file; decoded they are the file itself."""
    import brotli

    big = [p for p in dist.rglob("*") if p.is_file() and compressible(p.name, p.stat().st_size)]
    assert any(p.name == "pyodide.asm.wasm" for p in big) and any(p.name.startswith("python_stdlib-") for p in big)
    for path in big:
        plain = path.read_bytes()
        for suffix, decode in ((".br", brotli.decompress), (".gz", gzip.decompress)):
            copy = path.with_name(path.name + suffix)
            assert copy.exists(), copy
            assert decode(copy.read_bytes()) == plain
            assert copy.stat().st_size < len(plain)


def test_headers_file_has_one_rule_per_path_with_csp_wasm_and_caching(dist):
    """12.9: CSP everywhere, application/wasm, a year for hash-named files, no-cache for the rest."""
    rules, current = {}, None
    for line in (dist / "_headers").read_text(encoding="utf-8").splitlines():
        if line.startswith("/"):
            assert line not in rules, f"two rules for {line}"
            current = rules.setdefault(line, {})
        elif line.startswith("  ") and current is not None:
            name, value = line.strip().split(": ", 1)
            current[name] = value
    served = {"/" + p.relative_to(dist).as_posix() for p in dist.rglob("*")
              if p.is_file() and not p.name.endswith((".br", ".gz")) and p.name != "_headers"}
    assert set(rules) == served | {"/"}
    for path, headers in rules.items():
        assert headers["Content-Security-Policy"] == CSP_HEADER, path
        hashed = path.startswith("/vendor/runtime-") or path.startswith("/vendor/python_stdlib-")
        assert headers["Cache-Control"] == ("public, max-age=31536000, immutable" if hashed else "no-cache"), path
        if path.endswith(".wasm"):
            assert headers["Content-Type"] == "application/wasm"
    for always_fresh in ("/", "/index.html", "/service-worker.js", "/vendor/sw-manifest.js", "/vendor/build-info.json"):
        assert rules[always_fresh]["Cache-Control"] == "no-cache"


def test_dist_server_sends_the_precompressed_copy(dist, dist_url):
    build = __import__("json").loads((dist / "vendor" / "build-info.json").read_text(encoding="utf-8"))
    url = f"{dist_url}vendor/{build['runtime_dir']}pyodide.asm.wasm"
    request = urllib.request.Request(url, headers={"Accept-Encoding": "gzip, deflate, br"})
    with urllib.request.urlopen(request, timeout=30) as response:
        body = response.read()
        assert response.headers["Content-Encoding"] == "br"
        assert response.headers.get_content_type() == "application/wasm"
        assert "Accept-Encoding" in response.headers["Vary"]
    assert body == (dist / "vendor" / build["runtime_dir"] / "pyodide.asm.wasm.br").read_bytes()


def test_the_app_from_dist_boots_plays_and_reloads_offline(page, dist_url, wait_for_engine):
    """12.9 and 14: from dist/, brotli on the wire; start a Blitz game, play a turn against the computer,
    the service worker installs (sha256 of every decoded body checked) and an offline reload boots."""
    encodings = {}
    page.context.on("response", lambda r: encodings.__setitem__(r.url.rsplit("/", 1)[-1], r.headers.get("content-encoding")))
    fast(page)
    page.goto(dist_url)
    wait_for_engine(page)
    assert encodings.get("pyodide.asm.wasm") == "br", encodings
    start_blitz_from_menu(page, strength="leicht")
    play_a_turn(page)
    wait_offline_ready(page, attempts=1)
    cached = page.evaluate("""async () => {
        const names = await caches.keys(); const cache = await caches.open(names[0]);
        const hit = await cache.match(new URL('vendor/build-info.json', location.href));
        const wasm = (await cache.keys()).find(r => r.url.endsWith('pyodide.asm.wasm'));
        const res = await cache.match(wasm);
        const digest = await crypto.subtle.digest('SHA-256', await res.arrayBuffer());
        return {info: await hit.json(), sha: Array.from(new Uint8Array(digest), b => b.toString(16).padStart(2, '0')).join(''),
                encoding: res.headers.get('content-encoding')};
    }""")
    wasm_path = next(p for p in (ROOT / "vendor").glob("runtime-*/pyodide.asm.wasm"))
    assert cached["sha"] == hashlib.sha256(wasm_path.read_bytes()).hexdigest()
    assert cached["encoding"] is None  # the cache holds decoded bytes, not a br body with a br label
    page.context.set_offline(True)
    page.reload()
    wait_for_engine(page)
    page.context.set_offline(False)
