"""Serve the app over HTTP for `make play` and the browser tests (standard library, plus `brotli` if
installed).

    python tools/serve.py [--port 8000] [--host 127.0.0.1] [--root .]      # the repository (dev)
    python tools/serve.py --root dist                                     # the deploy folder

PORT and HOST from the environment are the defaults, so `make play PORT=9000 HOST=0.0.0.0` works.
Why not plain `python -m http.server`:
- MIME types are set explicitly instead of read from the machine's mimetypes database: a `.wasm`
  served as anything but `application/wasm` makes Pyodide's `loadPyodide` hang (it neither resolves
  nor rejects), and `.mjs` must be JavaScript for module workers.
- `Cache-Control: no-cache` on every response, so a rebuilt wheel or an edited script is picked up
  on reload while still allowing revalidation (the service worker does the offline caching).
- It binds 127.0.0.1 unless told otherwise: a dev server has no business on the LAN by default.
- `--port 0` picks a free port; the first line printed is the URL, which e2e/conftest.py reads.
- Only the app's files (issue 12.8): from the repository root, the allow-list below (the precache
  list's folders, the service worker and e2e/pages/); never dotfiles, never directory listings.
- The Content-Security-Policy and the other headers of tools/site_headers.py on every response
  (issue 12.7): a worker takes its policy from its own script's response, not from the page.
- Compressed transfer (issue 14): Content-Encoding br or gzip negotiated from Accept-Encoding, from a
  precompressed `.br`/`.gz` beside the file (dist/) or compressed once in memory; `Vary:
  Accept-Encoding`; the Content-Type stays the file's own (`application/wasm` for the wasm).
"""

from __future__ import annotations

import argparse
import datetime
import email.utils
import functools
import gzip
import http.server
import io
import os
import sys
import threading
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
from site_headers import ENCODINGS, MIME_TYPES, SECURITY_HEADERS, accepted_encodings, compressible  # noqa: E402

# What the repository root may serve (issue 12.8): the app, i.e. every file of the precache list
# (tools/build_sw.py: index.html, manifest.json, icons/, pwa/, vendor/) plus the service worker, and
# the browser tests' own pages. Everything else (.git/, .venv/, node_modules/, tests/, tools/,
# kaltfront/ sources, pyproject.toml …) is a 404: `make play HOST=0.0.0.0` puts this on the network.
# Folders, not single files, so a new module under pwa/ works before `make site` lists it.
APP_FILES = frozenset({"index.html", "manifest.json", "service-worker.js"})
APP_FOLDERS = ("icons/", "pwa/", "vendor/", "e2e/pages/")


def repository_allows(rel: str) -> bool:
    """True if `rel` (a path relative to the repository root, "/"-separated) belongs to the app."""
    return rel in APP_FILES or rel.startswith(APP_FOLDERS)


class Handler(http.server.SimpleHTTPRequestHandler):
    """Static files of the app only, with fixed MIME types, security headers, no-cache and compression."""

    # Keep-alive: a boot fetches several files, and the e2e suite many pages, over few connections.
    protocol_version = "HTTP/1.1"

    # Replaces the mimetypes-database lookup entirely, so the answer is the same on every machine.
    extensions_map = {"": "application/octet-stream", **MIME_TYPES}

    # Set per server by main(): the folder served and whether the repository allow-list applies
    # (a deploy folder built by `make dist` holds only app files, so all of it may be served).
    allow_list = True
    # Compressed copies made on the fly, keyed by (path, size, mtime, encoding); shared by threads.
    _compressed: dict = {}
    _compressed_lock = threading.Lock()

    def guess_type(self, path: str) -> str:
        # The manifest is named manifest.json (REQUIREMENTS P6) but must carry the manifest type.
        if os.path.basename(path) == "manifest.json":
            return "application/manifest+json"
        return super().guess_type(path)

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-cache")
        for name, value in SECURITY_HEADERS.items():
            self.send_header(name, value)
        super().end_headers()

    def log_message(self, format: str, *args: object) -> None:
        if os.environ.get("KALTFRONT_SERVE_QUIET"):
            return
        super().log_message(format, *args)

    # --- what may be served ---------------------------------------------------------------------
    def _relative(self) -> str | None:
        """The request's path relative to the served folder, or None if it is not the app's."""
        path = urllib.parse.unquote(urllib.parse.urlsplit(self.path).path)
        if path.endswith("/"):
            path += "index.html"
        parts = [p for p in path.split("/") if p]
        # No dotfiles or dot folders anywhere (.git, .venv, .env …), no climbing out of the root.
        if any(p.startswith(".") or "\\" in p for p in parts):
            return None
        rel = "/".join(parts)
        if self.allow_list and not repository_allows(rel):
            return None
        return rel

    def send_head(self):
        rel = self._relative()
        full = Path(self.directory, rel) if rel is not None else None
        if full is None or not full.is_file():
            # No directory listings, and a refused path looks exactly like a missing one.
            self.send_error(404, "Not found")
            return None
        stat = full.stat()
        ctype = self.guess_type(str(full))
        if self._not_modified(stat):
            self.send_response(304)
            self.send_header("Last-Modified", self.date_time_string(stat.st_mtime))
            self.send_header("Vary", "Accept-Encoding")
            self.end_headers()
            return None
        encoding, body_path, body = self._encoded(full, stat)
        if body is None:
            f = open(body_path, "rb")
            length = os.fstat(f.fileno()).st_size
        else:
            f = io.BytesIO(body)
            length = len(body)
        self.send_response(200)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(length))
        self.send_header("Last-Modified", self.date_time_string(stat.st_mtime))
        if compressible(full.name, stat.st_size):
            # Caches must keep the br, gzip and plain answers apart (issue 14).
            self.send_header("Vary", "Accept-Encoding")
        if encoding:
            self.send_header("Content-Encoding", encoding)
        self.end_headers()
        return f

    def _not_modified(self, stat) -> bool:
        since = self.headers.get("If-Modified-Since")
        if not since or self.headers.get("If-None-Match"):
            return False
        try:
            when = email.utils.parsedate_to_datetime(since)
        except (TypeError, ValueError, IndexError, OverflowError):
            return False
        if when.tzinfo is None:
            when = when.replace(tzinfo=datetime.timezone.utc)
        return int(stat.st_mtime) <= when.timestamp()

    def _encoded(self, full: Path, stat):
        """(Content-Encoding or None, path to send, or bytes to send) for the request's Accept-Encoding.

        A precompressed copy beside the file (`make dist` writes `.br` and `.gz`) is sent as it is,
        if it is not older than the file; otherwise text and wasm are compressed here once and kept
        in memory (brotli if the `brotli` package is installed, else gzip)."""
        if not compressible(full.name, stat.st_size):
            return None, full, None
        accepted = accepted_encodings(self.headers.get("Accept-Encoding"))
        for encoding, suffix in ENCODINGS:
            if encoding not in accepted:
                continue
            ready = full.with_name(full.name + suffix)
            if ready.is_file() and ready.stat().st_mtime >= stat.st_mtime:
                return encoding, ready, None
            body = self._compress(full, stat, encoding)
            if body is not None:
                return encoding, None, body
        return None, full, None

    @classmethod
    def _compress(cls, full: Path, stat, encoding: str) -> bytes | None:
        key = (str(full), stat.st_size, stat.st_mtime_ns, encoding)
        with cls._compressed_lock:
            if key in cls._compressed:
                return cls._compressed[key]
            data = full.read_bytes()
            if encoding == "gzip":
                body = gzip.compress(data, compresslevel=6, mtime=0)
            else:
                try:
                    import brotli
                except ImportError:
                    return None
                # Quality 5: a fraction of a second for the 9.6 MB wasm; `make dist` uses 11.
                body = brotli.compress(data, quality=5)
            # Old versions of a rebuilt file are dropped, so memory stays at one copy per file.
            for old in [k for k in cls._compressed if k[0] == key[0] and k[3] == encoding]:
                del cls._compressed[old]
            cls._compressed[key] = body
            return body


class Server(http.server.ThreadingHTTPServer):
    # Lets a restarted `make play` bind the port at once instead of waiting for TIME_WAIT.
    allow_reuse_address = True
    daemon_threads = True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Serve the Kaltfront repository root.")
    parser.add_argument("--host", default=os.environ.get("HOST") or "127.0.0.1")
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT") or 8000))
    parser.add_argument("--root", default=str(ROOT), help="folder to serve (default: the repository root)")
    args = parser.parse_args(argv)

    root = Path(args.root).resolve()
    if not (root / "index.html").is_file():
        print(f"serve: {root} has no index.html (run `make site`, or `make dist` for dist/)", file=sys.stderr)
        return 1
    # The repository gets the allow-list; any other folder (dist/ from `make dist`) holds only the app.
    handler_class = type("AppHandler", (Handler,), {"allow_list": root == ROOT})
    handler = functools.partial(handler_class, directory=str(root))
    try:
        httpd = Server((args.host, args.port), handler)
    except OSError as e:
        print(f"serve: cannot listen on {args.host}:{args.port}: {e.strerror}", file=sys.stderr)
        return 1
    host, port = httpd.server_address[:2]
    shown = "localhost" if host in ("127.0.0.1", "::1") else host
    print(f"Kaltfront: http://{shown}:{port}/", flush=True)
    try:
        httpd.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        httpd.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
