"""Serve the repository root over HTTP for `make play` and the browser tests (standard library only).

    python tools/serve.py [--port 8000] [--host 127.0.0.1] [--root .]

PORT and HOST from the environment are the defaults, so `make play PORT=9000 HOST=0.0.0.0` works.
Why not plain `python -m http.server`:
- MIME types are set explicitly instead of read from the machine's mimetypes database: a `.wasm`
  served as anything but `application/wasm` makes Pyodide's `loadPyodide` hang (it neither resolves
  nor rejects), and `.mjs` must be JavaScript for module workers.
- `Cache-Control: no-cache` on every response, so a rebuilt wheel or an edited script is picked up
  on reload while still allowing revalidation (the service worker does the offline caching).
- It binds 127.0.0.1 unless told otherwise: a dev server has no business on the LAN by default.
- `--port 0` picks a free port; the first line printed is the URL, which e2e/conftest.py reads.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

MIME_TYPES = {
    ".wasm": "application/wasm",
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".json": "application/json",
    ".webmanifest": "application/manifest+json",
    ".whl": "application/octet-stream",
    ".zip": "application/zip",
    ".svg": "image/svg+xml",
    ".html": "text/html; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".txt": "text/plain; charset=utf-8",
    ".md": "text/markdown; charset=utf-8",
    ".toml": "text/plain; charset=utf-8",
    ".map": "text/plain; charset=utf-8",
}


class Handler(http.server.SimpleHTTPRequestHandler):
    """Static files with fixed MIME types and no-cache headers."""

    # Keep-alive: a boot fetches several files, and the e2e suite many pages, over few connections.
    protocol_version = "HTTP/1.1"

    # Replaces the mimetypes-database lookup entirely, so the answer is the same on every machine.
    extensions_map = {"": "application/octet-stream", **MIME_TYPES}

    def guess_type(self, path: str) -> str:
        # The manifest is named manifest.json (REQUIREMENTS P6) but must carry the manifest type.
        if os.path.basename(path) == "manifest.json":
            return "application/manifest+json"
        return super().guess_type(path)

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_message(self, format: str, *args: object) -> None:
        if os.environ.get("KALTFRONT_SERVE_QUIET"):
            return
        super().log_message(format, *args)


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

    handler = functools.partial(Handler, directory=os.path.abspath(args.root))
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
