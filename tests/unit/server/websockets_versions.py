"""Run the websockets-adapter tests under every supported minor version of websockets.

``python -m tests.unit.server.websockets_versions [--versions 15.0 17.4]`` makes a virtual
environment (in a temporary directory, with pip) with the test runner, then for each version
installs that websockets and runs ``tests/unit/server/test_websocket_adapter.py`` there with
this checkout on the path. It prints one line per version and exits non-zero if any failed. The
default test run covers the installed version only; this covers the others.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
TEST = "tests/unit/server/test_websocket_adapter.py"
VERSIONS = ("15.0", "15.0.1", "16.0", "16.1.1", "17.0", "17.4")
"""The first and the last release of each major version pyproject allows (``>=15,<18``)."""
RUNNER = ("pytest>=8", "pytest-asyncio>=0.24", "pytest-timeout>=2.3")


def make_environment(where: Path) -> Path:
    """A virtual environment with the test runner; its Python."""
    venv.create(where, with_pip=True)
    python = where / "bin" / "python"
    _pip(python, *RUNNER)
    return python


def _pip(python: Path, *packages: str) -> None:
    subprocess.run(
        [python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", *packages],
        check=True,
        capture_output=True,
    )


def run_version(python: Path, version: str) -> tuple[bool, str]:
    """Install websockets ``version`` and run the adapter tests; (passed, pytest's summary)."""
    try:
        _pip(python, f"websockets=={version}")
    except subprocess.CalledProcessError as error:
        return False, "pip failed: " + error.stderr.decode(errors="replace").strip()[-200:]
    result = subprocess.run(
        [python, "-m", "pytest", "-q", "-p", "no:cacheprovider", TEST],
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
    )
    lines = result.stdout.strip().splitlines()
    return result.returncode == 0, lines[-1] if lines else result.stderr.strip()[-300:]


def main() -> int:
    """Run every version; one line each."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--versions", nargs="+", default=list(VERSIONS))
    arguments = parser.parse_args()
    failed = 0
    with tempfile.TemporaryDirectory() as where:
        python = make_environment(Path(where))
        for version in arguments.versions:
            ok, summary = run_version(python, version)
            failed += not ok
            print(f"websockets {version}: {'ok' if ok else 'FAILED'} — {summary}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
