"""Issue 12.7: the app runs under a strict Content-Security-Policy, in the page and in the engine worker.

The policy (tools/site_headers.py) comes as a header on every response of tools/serve.py and as a
meta tag in index.html; index.html has no inline handlers left. One page boot plays a Blitz game against
the computer (start from the menu, move a unit, end the phase, the computer's whole turn) and then
reloads (the warm start from the memory snapshot, if one was stored), and no `securitypolicyviolation`
may fire: the page's own events are caught by an init script, the worker's are reported by
pwa/worker.js and logged by pwa/engine.js to the page console.
"""

from __future__ import annotations

import json
import re
import sys
import urllib.request
from pathlib import Path

from offline_helpers import fast, play_a_turn, start_blitz_from_menu

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
from site_headers import CSP_HEADER, CSP_META  # noqa: E402

RECORD_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__cspViolations.push(`${e.effectiveDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`);
});
"""


def test_policy_is_strict_and_has_no_unsafe_eval():
    """12.7: the brief's directives, tightened; 'unsafe-eval' and inline script stay out."""
    directives = dict(d.split(" ", 1) for d in CSP_HEADER.split("; "))
    assert directives["script-src"] == "'self' 'wasm-unsafe-eval'"
    assert directives["default-src"] == "'self'"
    assert directives["object-src"] == "'none'" and directives["base-uri"] == "'none'"
    assert directives["frame-ancestors"] == "'none'"
    assert "frame-ancestors" not in CSP_META  # ignored (with a warning) in a meta tag


def test_index_html_has_the_meta_policy_and_no_inline_script():
    html = (ROOT / "index.html").read_text(encoding="utf-8")
    meta = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]+)">', html)
    assert meta and meta.group(1) == CSP_META
    assert not re.search(r"\son[a-z]+\s*=", html), "inline event handler in index.html"
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), "inline <script> in index.html"


def test_every_response_carries_the_policy_header(base_url):
    """The worker takes its policy from its own script's response, so scripts need the header too."""
    build = json.loads((ROOT / "vendor" / "build-info.json").read_text(encoding="utf-8"))
    for path in ("", "pwa/worker.js", "service-worker.js", f"vendor/{build['runtime_dir']}pyodide.asm.wasm",
                 "e2e/pages/boot.html"):
        with urllib.request.urlopen(base_url + path, timeout=10) as response:
            assert response.headers["Content-Security-Policy"] == CSP_HEADER, path
            assert response.headers["X-Content-Type-Options"] == "nosniff"


def test_a_game_raises_no_policy_violation_in_page_or_worker(page, base_url, wait_for_engine):
    """12.7: boot, start a Blitz game, move, end the phase, the computer's turn, reload: no violation."""
    fast(page)
    page.add_init_script(RECORD_VIOLATIONS)
    logged = []
    page.on("console", lambda m: logged.append(m.text) if "Content-Security-Policy" in m.text else None)
    response = page.goto(base_url)
    assert response.headers["content-security-policy"] == CSP_HEADER
    wait_for_engine(page)
    start_blitz_from_menu(page, strength="leicht")
    play_a_turn(page)  # own move, "Phase beenden", the computer's whole turn, back to the own turn
    assert page.evaluate("() => window.__cspViolations") == []
    page.reload()  # the init script runs again: a fresh list for the warm start
    wait_for_engine(page)
    assert page.evaluate("() => window.__cspViolations") == []
    assert logged == [], logged
