"""Textual's private API is touched in one module, for one Textual, and each touch is checked.

Each drift test states what :mod:`observer.app.textual_patches` relies on in the pinned Textual;
when a new Textual changes it, the test fails and says which patch to revise (or drop: a fixed
``Strip.divide`` makes its patch unnecessary). Building an app patches nothing: the command that
starts it installs the patches, so tests compare with Textual as it is.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import inspect
import re
import tomllib
from pathlib import Path

import textual.constants
from textual.strip import Strip

from observer.app import textual_patches
from observer.app.app import ObserverApp
from tests.app.conftest import scripted

ROOT = Path(__file__).resolve().parents[2]
RUN_INPUT_THREAD = "d796af6d69db337d6fa6bd463984f7d17188d991dbb22f60efb92a8a9619507c"
"""SHA-256 of ``LinuxDriver.run_input_thread``'s source in the pinned Textual, which
``textual_patches.input_driver`` copies with one wait changed."""
PRIVATE = re.compile(
    r"textual\._|textual\.widgets\._|\b_compositor\b|_dirty_widgets|_set_dirty|check_idle\("
    r"|Strip\.\w+ = |ESCAPE_DELAY = |count_parameters|_timeout_time"
)


def test_textual_is_the_version_the_patches_were_written_for() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    pins = [dep for dep in project["dependencies"] if dep.startswith("textual")]
    assert pins == ["textual==8.2.8"]
    assert importlib.metadata.version("textual") == "8.2.8"


def test_strip_divide_still_caches_a_line_divided_into_itself() -> None:
    """The reference cycle the patch removes (docs/textual.md): gone, drop the patch."""
    assert textual_patches.divide_caches_itself()


def test_strip_init_makes_the_caches_the_patch_makes_lazily() -> None:
    assert textual_patches.caches_as_expected()


def test_the_input_thread_is_the_one_the_driver_copies() -> None:
    from textual.drivers.linux_driver import LinuxDriver

    source = inspect.getsource(LinuxDriver.run_input_thread)
    assert hashlib.sha256(source.encode()).hexdigest() == RUN_INPUT_THREAD


def test_the_parser_keeps_a_lone_escapes_deadline_on_the_clock_the_driver_reads() -> None:
    import textual._parser
    from textual._time import get_time
    from textual._xterm_parser import XTermParser

    parser = XTermParser()
    assert parser._timeout_time is None
    list(parser.feed("\x1b"))
    deadline = parser._timeout_time
    assert deadline is not None
    assert 0 < deadline - get_time() <= textual.constants.ESCAPE_DELAY
    assert textual._parser.get_time is get_time


def test_building_an_app_patches_nothing() -> None:
    from textual.drivers.linux_driver import LinuxDriver

    delay = textual.constants.ESCAPE_DELAY
    app = ObserverApp([scripted([b"$ "])])
    assert Strip.divide is textual_patches._textual_divide
    assert Strip.__init__ is textual_patches._textual_init
    assert delay == textual.constants.ESCAPE_DELAY
    assert app.get_driver_class() is LinuxDriver


def test_installed_patches_are_removed_again() -> None:
    from textual.drivers.linux_driver import LinuxDriver

    delay = textual.constants.ESCAPE_DELAY
    textual_patches.install({})
    try:
        assert Strip.divide is not textual_patches._textual_divide
        assert Strip.__init__ is not textual_patches._textual_init
        assert textual.constants.ESCAPE_DELAY == textual_patches.ESCAPE_DELAY
        assert ObserverApp([]).get_driver_class() is textual_patches.input_driver()
    finally:
        textual_patches.uninstall()
    assert Strip.divide is textual_patches._textual_divide
    assert Strip.__init__ is textual_patches._textual_init
    assert delay == textual.constants.ESCAPE_DELAY
    assert ObserverApp([]).get_driver_class() is LinuxDriver


def test_textuals_private_api_is_touched_in_one_module() -> None:
    touching = {
        str(path.relative_to(ROOT))
        for path in (ROOT / "observer").rglob("*.py")
        if PRIVATE.search(path.read_text())
    }
    assert touching == {"observer/app/textual_patches.py"}
