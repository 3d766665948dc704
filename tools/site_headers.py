"""The HTTP rules Kaltfront is served with, in one place: the dev server (tools/serve.py), the deploy
folder's headers files (tools/build_dist.py) and the tests read them from here (issue 12.7, 12.9, 14).

- Content-Security-Policy: only the app's own origin. 'wasm-unsafe-eval' lets Pyodide compile its
  WebAssembly; 'unsafe-eval' is NOT needed (measured: a whole game, boot to computer turn, raises no
  violation without it; Pyodide's eval() calls serve EM_ASM code of shared libraries the engine never
  loads). Inline style attributes stay allowed: the shell sets a few (`style-src 'unsafe-inline'`);
  inline *script* does not exist any more. `frame-ancestors` works only as a header, so the page's meta
  tag carries the rest (CSP_META) and servers send CSP_HEADER.
- Which files are compressed, and the MIME types every server must send (Pyodide hangs when the wasm
  is not `application/wasm`).
"""

from __future__ import annotations

CSP_DIRECTIVES = (
    "default-src 'self'",
    "script-src 'self' 'wasm-unsafe-eval'",
    "worker-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self'",
    "connect-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
)

# The <meta http-equiv> form in index.html (frame-ancestors is ignored there, so it is left out).
CSP_META = "; ".join(CSP_DIRECTIVES)
# What a server sends on every response (pages, scripts and workers alike: a worker takes its policy
# from its own script's response, not from the page's meta tag).
CSP_HEADER = "; ".join((*CSP_DIRECTIVES, "frame-ancestors 'none'"))

SECURITY_HEADERS = {
    "Content-Security-Policy": CSP_HEADER,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}

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

# Worth compressing: text, WebAssembly and the cut standard library, a zip whose members are stored
# uncompressed on purpose (tools/cut_stdlib.py: brotli over the whole archive beats per-file deflate,
# 0.66 MB against Pyodide's 2.5 MB deflated zip). PNGs are compressed already.
# The kaltfront wheel is stored uncompressed too, since it carries bytecode beside its sources (issue 14).
COMPRESSIBLE_SUFFIXES = (".wasm", ".mjs", ".js", ".json", ".html", ".css", ".svg", ".txt", ".md", ".zip", ".whl")
# Below this a compressed copy saves less than a request's headers.
COMPRESS_MIN_BYTES = 1024

# Content-Encoding names with the file suffix of their precompressed copy, best first.
ENCODINGS = (("br", ".br"), ("gzip", ".gz"))


def compressible(name: str, size: int) -> bool:
    return name.endswith(COMPRESSIBLE_SUFFIXES) and size >= COMPRESS_MIN_BYTES


def accepted_encodings(header: str | None) -> set[str]:
    """The codings an Accept-Encoding header allows (q=0 excluded); `*` is not used by browsers."""
    accepted = set()
    for part in (header or "").split(","):
        name, _, params = part.strip().partition(";")
        name = name.strip().lower()
        if not name:
            continue
        q = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key.strip() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if q > 0:
            accepted.add(name)
    return accepted
