"""The pure core imports no framework, no event loop and no network code.

import-linter checks the static imports; this test checks what really lands in ``sys.modules``
when each core package is imported in a fresh interpreter.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

CORE = ["observer.protocol", "observer.terminal", "observer.asciicast", "observer.replay"]
FORBIDDEN = {"textual", "rich", "websockets", "keyring", "asyncio", "socket", "platformdirs"}


@pytest.mark.parametrize("package", CORE)
def test_core_package_loads_no_io_or_framework(package: str) -> None:
    code = f"import json, sys; import {package}; print(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = {name.split(".")[0] for name in json.loads(out.stdout)}
    assert not (loaded & FORBIDDEN), f"{package} pulls in {sorted(loaded & FORBIDDEN)}"
