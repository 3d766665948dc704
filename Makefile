# Kaltfront's two commands, `make play` and `make test`, and the steps they are built from.
# Every target installs what it needs itself (a fresh machine has only python3, node/npm, make and
# apt), is safe to run again, and skips work already done: stamp files mark a finished venv and
# npm install; the site rebuild is reproducible and takes about a second.

PYTHON ?= python3
PORT ?= 8000
HOST ?= 127.0.0.1
# `make play DIST=1` serves dist/ (what a static host gets) instead of the repository.
DIST ?=

VENV := .venv
VPY := $(VENV)/bin/python
VENV_STAMP := $(VENV)/.kaltfront-installed
NODE_STAMP := node_modules/.kaltfront-installed
# tests/ belongs to the engine and may not exist yet in an early checkout; pytest must not be
# handed a missing folder.
TEST_DIRS := $(wildcard tests e2e)

.PHONY: all play play-dist dist stdlib-audit test test-fast site venv node_modules browser engines bench clean distclean help

all: site

help:
	@echo "make play       serve the game at http://localhost:$(PORT)/ (PORT=, HOST= to change; DIST=1 serves dist/)"
	@echo "make dist       build dist/: the site for any static HTTPS host (README, \"Deploy\")"
	@echo "make test       install everything needed and run tests/ and e2e/ (Chromium, WebKitGTK, Firefox ESR)"
	@echo "make test-fast  engine tests only (tests/), no browser"
	@echo "make bench      run every bench/*.py"
	@echo "make clean      remove build output (vendor/, build/, caches); distclean also .venv, node_modules"

# --- Python: the project venv (pytest, hypothesis, playwright, build), engine installed editable.
venv: $(VENV_STAMP)

$(VENV_STAMP): pyproject.toml
	@test -x $(VPY) || $(PYTHON) -m venv $(VENV)
	$(VPY) -m pip install --disable-pip-version-check --quiet -e '.[test]'
	@touch $@

# --- JavaScript: only the Pyodide runtime, exactly as package-lock.json pins it.
node_modules: $(NODE_STAMP)

# puppeteer-core (Firefox for e2e/engines/) never downloads a browser; the variable makes sure of it.
$(NODE_STAMP): package.json package-lock.json
	PUPPETEER_SKIP_DOWNLOAD=1 npm ci --no-audit --no-fund
	@touch $@

# --- vendor/: kaltfront wheel + Pyodide runtime + project lockfile + build-info.json, then the service
# worker's precache list with content hashes (vendor/sw-manifest.js, tools/build_sw.py).
# Always run: the script is fast, the wheel is byte-identical when nothing changed, and this way a
# deleted or added engine module can never be missed by a stale dependency list.
site: $(VENV_STAMP) $(NODE_STAMP)
	$(VPY) tools/build_site.py
	$(VPY) tools/build_sw.py

# --- A Chromium for the browser tests: the system one if present, else Debian's package (as root),
# else Playwright's own download (which needs its CDN to be reachable).
browser: $(VENV_STAMP)
	@if $(VPY) tools/find_browser.py >/dev/null 2>&1; then \
		echo "browser: $$($(VPY) tools/find_browser.py)"; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
		echo "browser: installing Debian's chromium"; \
		apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium \
			|| $(VENV)/bin/playwright install chromium; \
	else \
		echo "browser: no Chromium and no root apt; trying playwright install chromium"; \
		$(VENV)/bin/playwright install chromium; \
	fi
	@$(VPY) tools/find_browser.py >/dev/null || { echo "browser: still no Chromium/Chrome found" >&2; exit 1; }

# --- dist/: exactly the precache list, brotli/gzip copies and a headers file (tools/build_dist.py).
dist: site
	$(VPY) tools/build_dist.py

# --- Re-record which stdlib modules the engine imports (the test suite inside Pyodide, ~10 min);
# `make site` builds the cut archive from tools/stdlib-modules.txt (tools/cut_stdlib.py).
stdlib-audit: site
	$(VPY) tools/cut_stdlib.py --audit
	$(VPY) tools/build_site.py
	$(VPY) tools/build_sw.py

# --- The other engines for the smoke tests in e2e/engines/ (issue 17): WebKitGTK with its WebDriver and
# MiniBrowser, Xvfb for MiniBrowser's window, Firefox ESR. Debian's packages, as root; without root
# and without them the engine tests fail and say what is missing (no silent skip).
engines:
	@missing=""; \
	[ -x /usr/bin/WebKitWebDriver ] || missing="$$missing webkit2gtk-driver"; \
	[ -x /usr/bin/Xvfb ] || missing="$$missing xvfb"; \
	[ -x /usr/bin/firefox-esr ] || missing="$$missing firefox-esr"; \
	if [ -z "$$missing" ]; then \
		echo "engines: WebKitWebDriver, Xvfb, firefox-esr present"; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
		echo "engines: installing Debian's$$missing"; \
		apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y $$missing; \
	else \
		echo "engines: missing$$missing and no root apt-get: the e2e/engines tests will fail" >&2; \
	fi

# --- The two commands.
play: $(VENV_STAMP) site $(if $(DIST),dist)
	$(VPY) tools/serve.py --port $(PORT) --host $(HOST) $(if $(DIST),--root dist)

play-dist:
	$(MAKE) play DIST=1

test: $(VENV_STAMP) site browser engines
	$(VPY) -m pytest $(TEST_DIRS)

test-fast: $(VENV_STAMP)
	$(VPY) -m pytest tests

bench: $(VENV_STAMP) site
	@set -e; found=0; for f in bench/*.py; do \
		[ -e "$$f" ] || continue; found=1; echo "== $$f"; $(VPY) "$$f"; \
	done; [ $$found = 1 ] || echo "bench: no bench/*.py yet"

clean:
	rm -rf vendor build dist *.egg-info .pytest_cache .hypothesis test-results
	find . -name __pycache__ -type d -not -path './.venv/*' -not -path './node_modules/*' -prune -exec rm -rf {} +

distclean: clean
	rm -rf $(VENV) node_modules
