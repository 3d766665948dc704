"""Print the path of an installed Chromium or Chrome for the browser tests; exit 1 if there is none.

Used by `make browser` (to decide whether to install one) and by e2e/conftest.py (to launch it through
Playwright's `executable_path`). The system browser is preferred because Playwright's own download
(`playwright install`) needs a host that is not reachable everywhere; KALTFRONT_BROWSER overrides.
"""

from __future__ import annotations

import glob
import os
import shutil
import sys

CANDIDATES = (
    "/usr/bin/chromium",
    "/usr/bin/chromium-browser",
    "/usr/bin/google-chrome",
    "/usr/bin/google-chrome-stable",
)

COMMANDS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def playwright_chromium() -> str | None:
    """The Chromium that `playwright install chromium` left in its cache, if any (the last fallback)."""
    cache = os.environ.get("PLAYWRIGHT_BROWSERS_PATH") or os.path.expanduser("~/.cache/ms-playwright")
    hits = sorted(glob.glob(os.path.join(cache, "chromium-*", "chrome-linux*", "chrome")))
    return hits[-1] if hits else None


def find_browser() -> str | None:
    override = os.environ.get("KALTFRONT_BROWSER")
    if override:
        return override if os.access(override, os.X_OK) else None
    for path in CANDIDATES:
        if os.access(path, os.X_OK):
            return path
    for name in COMMANDS:
        found = shutil.which(name)
        if found:
            return found
    return playwright_chromium()


def main() -> int:
    path = find_browser()
    if path is None:
        print("find_browser: no Chromium or Chrome found (run `make browser`)", file=sys.stderr)
        return 1
    print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
