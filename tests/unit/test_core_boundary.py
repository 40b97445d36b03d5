"""The pure core does no I/O and knows no framework: every module of it, checked two ways.

What the core may not import has one home: the import-linter contract with ``id = "pure-core"`` in
``pyproject.toml``. This test reads that contract and checks every module of every pure package:

- statically, each module's own import statements (``ast``), which is the only way to see a direct
  ``import os`` or ``import time``: the interpreter has loaded those by the time any code runs;
- dynamically, in a fresh interpreter per module, the forbidden modules the import adds to
  ``sys.modules`` beyond a bare interpreter's, which also catches what a third-party dependency
  (pyte, wcwidth) would pull in behind the core's back.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import json
import pkgutil
import subprocess
import sys
import tomllib
from collections.abc import Iterable, Iterator
from functools import cache
from pathlib import Path

import pytest

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"
CONTRACT_ID = "pure-core"


def _contract() -> dict[str, list[str]]:
    contracts = tomllib.loads(PYPROJECT.read_text())["tool"]["importlinter"]["contracts"]
    (contract,) = [c for c in contracts if c.get("id") == CONTRACT_ID]
    return dict(contract)


PURE_PACKAGES: list[str] = _contract()["source_modules"]
FORBIDDEN: list[str] = _contract()["forbidden_modules"]


def _modules_of(package: str) -> Iterator[str]:
    yield package
    path = importlib.import_module(package).__path__
    yield from (info.name for info in pkgutil.walk_packages(path, f"{package}."))


PURE_MODULES = sorted(name for package in PURE_PACKAGES for name in _modules_of(package))


def _forbidden_in(names: Iterable[str], forbidden: Iterable[str] = FORBIDDEN) -> set[str]:
    """The names that are a forbidden module or inside one (``os.path`` is inside ``os``)."""
    return {n for n in names for f in forbidden if n == f or n.startswith(f"{f}.")}


def _imported_names(module: str) -> Iterator[tuple[int, str]]:
    """(line, absolute module name) for every import statement in ``module``'s source, at any depth."""
    spec = importlib.util.find_spec(module)
    assert spec is not None and spec.origin is not None
    package = module if spec.submodule_search_locations is not None else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(Path(spec.origin).read_text(), spec.origin)):
        if isinstance(node, ast.Import):
            yield from ((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = importlib.util.resolve_name("." * node.level + (node.module or ""), package)
            yield node.lineno, base
            # ``from observer import app`` imports the module observer.app.
            yield from ((node.lineno, f"{base}.{alias.name}") for alias in node.names)


def _loaded_in_fresh_interpreter(statement: str) -> set[str]:
    code = f"{statement}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return set(json.loads(out.stdout))


@cache
def _baseline() -> frozenset[str]:
    return frozenset(_loaded_in_fresh_interpreter("pass"))


def test_the_contract_names_the_pure_packages_and_what_they_may_not_import() -> None:
    assert set(PURE_PACKAGES) >= {"observer.protocol", "observer.client"}
    assert len(PURE_MODULES) > len(PURE_PACKAGES), "walking the packages found no modules"
    # Loaded at start-up, these are seen by the static check only; it is there for them.
    assert {"os", "io"} <= _forbidden_in(_baseline())


@pytest.mark.parametrize("module", PURE_MODULES)
def test_pure_module_imports_nothing_forbidden(module: str) -> None:
    found = {(line, name) for line, name in _imported_names(module) if _forbidden_in([name])}
    assert not found, f"{module} imports {sorted(found)} (line, module)"


@pytest.mark.parametrize("module", PURE_MODULES)
def test_pure_module_loads_nothing_forbidden_in_a_fresh_interpreter(module: str) -> None:
    added = _loaded_in_fresh_interpreter(f"import {module}") - _baseline()
    assert not _forbidden_in(added), f"importing {module} loads {sorted(_forbidden_in(added))}"
