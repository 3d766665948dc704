"""tools/serve.py serves the app and nothing else (issue 12.8), compressed where it pays (issue 14).

No browser: plain HTTP against the session's server (e2e/conftest.py, the repository root as
`make play` serves it). A refused path answers exactly like a missing one (404), so the server tells
nobody what else lies on the disk.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from offline_helpers import precache

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
from site_headers import compressible  # noqa: E402


def fetch(url: str, encoding: str | None = None) -> tuple[int, dict, bytes]:
    request = urllib.request.Request(url, headers={"Accept-Encoding": encoding} if encoding else {})
    try:
        with urllib.request.urlopen(request, timeout=20) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers, e.read()


@pytest.mark.parametrize(
    "path",
    [
        ".git",
        ".git/HEAD",
        ".git/config",
        ".gitignore",
        ".venv/pyvenv.cfg",
        ".venv/bin/python",
        "tests/helpers.py",
        "tests/",
        "tools/serve.py",
        "tools/",
        "kaltfront/game.py",
        "kaltfront/data/rules.json",
        "node_modules/pyodide/package.json",
        "pyproject.toml",
        "Makefile",
        "README.md",
        "e2e/conftest.py",
        "bench/bench_browser.py",
        "%2egit/HEAD",
        "pwa/%2e%2e/.git/HEAD",
        "pwa/../pyproject.toml",
        "pwa/",
        "vendor/",
    ],
)
def test_files_outside_the_app_are_404(base_url, path):
    """12.8: `make play HOST=0.0.0.0` must not hand out the repository, its venv or its git history."""
    status, _, body = fetch(base_url + path)
    assert status == 404, f"{path}: HTTP {status}"
    assert b"Index of" not in body


def test_every_file_of_the_app_is_served(base_url):
    """The allow-list covers the whole precache list, the service worker and the tests' own pages."""
    urls = [e["url"] for e in precache()["files"]] + ["service-worker.js", "vendor/sw-manifest.js", "e2e/pages/boot.html", ""]
    for url in urls:
        status, headers, _ = fetch(base_url + url)
        assert status == 200, f"{url}: HTTP {status}"


@pytest.mark.parametrize("encoding", ["br", "gzip"])
def test_large_files_come_compressed_with_their_own_type(base_url, encoding):
    """14: Content-Encoding from Accept-Encoding, Vary set, application/wasm kept, same bytes decoded."""
    import brotli

    decode = brotli.decompress if encoding == "br" else gzip.decompress
    for entry in precache()["files"]:
        status, headers, body = fetch(base_url + entry["url"], f"{encoding}, deflate")
        assert status == 200
        plain = (ROOT / entry["url"]).read_bytes()
        if compressible(entry["url"], len(plain)):
            assert headers["Content-Encoding"] == encoding, entry["url"]
            assert "Accept-Encoding" in headers["Vary"]
            assert int(headers["Content-Length"]) == len(body) < len(plain)
            body = decode(body)
        else:
            assert headers["Content-Encoding"] is None, entry["url"]
        assert hashlib.sha256(body).digest() == hashlib.sha256(plain).digest(), entry["url"]
    build = json.loads((ROOT / "vendor" / "build-info.json").read_text(encoding="utf-8"))
    status, headers, _ = fetch(base_url + f"vendor/{build['runtime_dir']}pyodide.asm.wasm", encoding)
    assert headers.get_content_type() == "application/wasm"


def test_no_compression_when_the_client_does_not_ask(base_url):
    status, headers, body = fetch(base_url + "pwa/app.js", "identity")
    assert status == 200 and headers["Content-Encoding"] is None
    assert body == (ROOT / "pwa" / "app.js").read_bytes()
    assert "Accept-Encoding" in headers["Vary"]
