"""tools/serve.py in a subprocess, for the browser tests (e2e/conftest.py's `base_url`) and the other
engines' smoke tests and benchmark (e2e/engines/engine_drivers.py's AppServer, bench/bench_engines.py):
one copy of how the server is started on a free loopback port, how its URL is read, how to wait until
it answers, and how a helper process is ended. Failures raise ServerError; each caller turns it into
its own kind of failure (pytest.fail, DriverError).
"""

from __future__ import annotations

import queue
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path
from typing import IO

ROOT = Path(__file__).resolve().parent.parent


class ServerError(RuntimeError):
    """tools/serve.py did not start or does not answer; the message says which."""


def start_server(log: IO[str], log_path: Path) -> tuple[subprocess.Popen, str]:
    """tools/serve.py serving the repository root on 127.0.0.1 and a free port, its request log written
    to `log` (a file, so a full pipe can never block the server). Returns the process and the URL it
    printed; ends the process and raises ServerError when it prints no URL within 20 s."""
    proc = subprocess.Popen(
        [sys.executable, str(ROOT / "tools" / "serve.py"), "--host", "127.0.0.1", "--port", "0", "--root", str(ROOT)],
        stdout=subprocess.PIPE,
        stderr=log,
        text=True,
        cwd=ROOT,
    )
    # The first stdout line is the URL; read it in a thread so a silent server cannot hang us.
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: lines.put(proc.stdout.readline()), daemon=True).start()
    try:
        line = lines.get(timeout=20)
    except queue.Empty:
        line = ""
    if not line.startswith("Kaltfront: http"):
        end_process(proc)
        raise ServerError(f"tools/serve.py did not start (printed {line!r}); see {log_path}")
    return proc, line.split(": ", 1)[1].strip()


def answers(url: str) -> bool:
    """True when `url` answers 200 within 2 s."""
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return response.status == 200
    except OSError:
        return False


def wait_until_answering(url: str, deadline_s: float = 20.0) -> None:
    """Poll `url` until it answers; ServerError after `deadline_s`."""
    end = time.monotonic() + deadline_s
    while not answers(url):
        if time.monotonic() > end:
            raise ServerError(f"the test server at {url} does not answer")
        time.sleep(0.1)


def end_process(proc: subprocess.Popen) -> None:
    """Stop a helper process we started: politely (SIGTERM), and by force if it is still there after 5 s."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
