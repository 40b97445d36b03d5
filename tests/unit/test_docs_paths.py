"""Every file, module, test and link that README.md and docs/*.md name exists.

A document that names a file which has moved sends a reader to nothing; this test reads every
document and looks up each repository path (``observer/...``, ``tests/...``, ``docs/...``; globs
and ``{a,b}`` alternatives expanded), each dotted module name (``observer.x.y``, ``tests.x``,
with a trailing attribute allowed: ``observer.server.Server``), each test named in backticks, and
each relative Markdown link with its ``#anchor``.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import re
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

_PATH = re.compile(
    r"(?<![\w./-])((?:observer|tests|docs|themes|screenshots|\.ci)/[\w.*{},/-]*[\w*}/])"
)
_MODULE = re.compile(r"(?<![\w./-])((?:observer|tests)(?:\.[A-Za-z_]\w*)+)")
_TEST = re.compile(r"`(test_\w+)`")
_FILE = re.compile(r"`(?!(?:observer|tests|docs)/)((?:[\w-]+/)*[\w-]+\.py)(?:[`:])")
"""A ``*.py`` named in backticks on its own (``arbiter.py``, ``adapters/native.py``)."""
_DEFINED = re.compile(r"`((?:[\w-]+/)*[\w-]+\.py): ([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)?)")
"""A function or class named with its file: ``client/watched.py: WatchedSession.feed``."""
_MEMBER = re.compile(r"`([A-Z]\w*)\.([a-z_]\w*)")
"""A method or attribute of one of our classes: ``WatchedSession.feed``, ``ScreenView.due``."""
_LINK = re.compile(r"\]\(([^)\s]+)\)")
NOT_MODULES = {"observer.v1"}
"""Dotted names that are not Python: the WebSocket subprotocol."""


def _expand(path: str) -> list[str]:
    """``a/{b,c}.py`` as ``a/b.py`` and ``a/c.py``."""
    match = re.search(r"\{([^}]*)\}", path)
    if match is None:
        return [path]
    head, tail = path[: match.start()], path[match.end() :]
    return [p for part in match.group(1).split(",") for p in _expand(head + part + tail)]


def _exists(path: str) -> bool:
    return any(ROOT.glob(path)) if "*" in path else (ROOT / path).exists()


@cache
def _python_files() -> tuple[str, ...]:
    return tuple(p.relative_to(ROOT).as_posix() for p in ROOT.glob("[!.]*/**/*.py"))


def _somewhere(name: str) -> bool:
    """A file ``name`` (or ``folder/name``) is in the repository, under any folder."""
    return any(path == name or path.endswith("/" + name) for path in _python_files())


def _defines(file: str, name: str) -> bool:
    """Some file ending in ``file`` defines ``name`` (``Class`` or ``Class.method``) at its top."""
    outer, _, inner = name.partition(".")
    for path in _python_files():
        if path != file and not path.endswith("/" + file):
            continue
        for node in ast.parse((ROOT / path).read_text("utf-8")).body:
            if not inner and outer in _assigned(node):
                return True
            if getattr(node, "name", None) != outer:
                continue
            if not inner:
                return True
            body = node.body if isinstance(node, ast.ClassDef) else []
            if any(getattr(member, "name", None) == inner for member in body):
                return True
    return False


def _resolves(name: str) -> bool:
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        module = ".".join(parts[:cut])
        try:
            found = importlib.util.find_spec(module) is not None
        except ModuleNotFoundError:
            found = False
        if found:
            target: object = importlib.import_module(module)
            for attribute in parts[cut:]:
                if not hasattr(target, attribute):
                    return False
                target = getattr(target, attribute)
            return True
    return False


@cache
def _members() -> dict[str, frozenset[str]]:
    """Every class of ``observer/`` by name, with what its body and its methods' ``self.x`` bind."""
    found: dict[str, set[str]] = {}
    for path in (ROOT / "observer").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.ClassDef):
                names = found.setdefault(node.name, set())
                for member in ast.walk(node):
                    names.update(_assigned(member) | {getattr(member, "name", "")})
                    if isinstance(member, ast.Attribute) and isinstance(member.ctx, ast.Store):
                        names.add(member.attr)
    return {name: frozenset(names) for name, names in found.items()}


def _member_missing(owner: str, member: str) -> bool:
    known = _members().get(owner)
    return known is not None and member not in known


def _assigned(node: ast.AST) -> set[str]:
    """The names a top-level ``NAME = ...`` or ``NAME: type = ...`` binds."""
    targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
    return {t.id for t in targets if isinstance(t, ast.Name)}


@cache
def _test_names() -> frozenset[str]:
    names = set()
    for path in (ROOT / "tests").rglob("test_*.py"):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                names.add(node.name)
    return frozenset(names)


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    text = re.sub(r"```.*?```", "", path.read_text("utf-8"), flags=re.S)
    return {_slug(m.group(1)) for m in re.finditer(r"^#{1,6} (.+)$", text, re.M)}


def _missing(doc: Path) -> list[str]:
    text = doc.read_text("utf-8")
    missing = []
    for found in _PATH.findall(text):
        for path in _expand(found.split("::")[0]):
            if not _exists(path):
                missing.append(path)
    for name in _MODULE.findall(text):
        if name not in NOT_MODULES and not _resolves(name):
            missing.append(name)
    missing += [name for name in _TEST.findall(text) if name not in _test_names()]
    missing += [name for name in _FILE.findall(text) if not _somewhere(name)]
    missing += [f"{f}: {n}" for f, n in _DEFINED.findall(text) if not _defines(f, n)]
    missing += [f"{o}.{m}" for o, m in _MEMBER.findall(text) if _member_missing(o, m)]
    return missing + [t for t in _LINK.findall(text) if not _link_found(doc, t)]


def _link_found(doc: Path, target: str) -> bool:
    if re.match(r"[a-z]+:", target):
        return True  # a URL, not a file of ours
    file, _, anchor = target.partition("#")
    linked = (doc.parent / file).resolve() if file else doc
    if not linked.exists():
        return False
    return not anchor or linked.suffix != ".md" or anchor in _anchors(linked)


@pytest.mark.parametrize("doc", DOCS, ids=[d.relative_to(ROOT).as_posix() for d in DOCS])
def test_everything_a_document_names_exists(doc: Path) -> None:
    assert _missing(doc) == []


def test_the_checker_finds_what_is_gone(tmp_path: Path) -> None:
    doc = tmp_path / "doc.md"
    doc.write_text(
        "See `observer/protocol/session.py`, `observer.protocol.nothing`, `test_never_written`,\n"
        "`arbiter.py` (there), `session.py` (gone), `protocol/modes.py: Nothing.here`,\n"
        "`CastReader.skipped` (there), `CastReader.rewind` (never written),\n"
        "[the spec](protocol.md#no-such-heading) and `observer/recording/{recorder,gone}.py`.\n"
        "Fine: `observer/errors.py`, `observer.errors.UsageError`, `observer.v1`.\n",
        "utf-8",
    )
    (tmp_path / "protocol.md").write_text("# The protocol\n", "utf-8")
    assert _missing(doc) == [
        "observer/protocol/session.py",
        "observer/recording/gone.py",
        "observer.protocol.nothing",
        "test_never_written",
        "session.py",
        "protocol/modes.py: Nothing.here",
        "CastReader.rewind",
        "protocol.md#no-such-heading",
    ]
