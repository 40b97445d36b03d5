"""The distribution: a wheel built from the repository's files installs the `observer` command,
its themes and its data, under a name of its own on PyPI, with no deprecation warning."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PIP = (sys.executable, "-m", "pip")
DISTRIBUTION = "observer-tty"  # "observer" on PyPI is an unrelated package from 2011

pytestmark = pytest.mark.timeout(180)


def clone_files(target: Path) -> Path:
    """Copy what a fresh clone holds (tracked and new, not ignored files): no egg-info, no caches."""
    listed = subprocess.run(
        ["git", "-C", str(ROOT), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        capture_output=True,
        check=True,
        timeout=30,
    ).stdout.decode()
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if source.is_file() and not source.is_symlink():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)
    return target


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """The wheel and the build's output. The venv's own setuptools builds it (no build
    isolation), so the test needs no network."""
    base = tmp_path_factory.mktemp("dist")
    project = str(clone_files(base / "clone"))
    wheels = str(base / "wheels")
    done = subprocess.run(
        [*PIP, "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-w", wheels, project],
        capture_output=True,
        text=True,
        timeout=150,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    (wheel,) = (base / "wheels").glob("*.whl")
    return wheel, done.stdout + done.stderr


def test_the_wheel_carries_the_free_name_and_the_build_warns_of_nothing(
    built: tuple[Path, str],
) -> None:
    wheel, output = built
    assert wheel.name.startswith(DISTRIBUTION.replace("-", "_") + "-")
    assert "deprecat" not in output.lower(), output
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        (metadata,) = [n for n in names if n.endswith(".dist-info/METADATA")]
        text = archive.read(metadata).decode()
    assert f"Name: {DISTRIBUTION}\n" in text
    assert "License-Expression: MIT\n" in text
    assert {"observer/data/demo.cast", "observer/app/app.tcss", "observer/py.typed"} <= names


def test_the_installed_wheel_runs_the_observer_command_and_finds_its_themes(
    built: tuple[Path, str], tmp_path: Path
) -> None:
    """Installed without downloading anything (the test stays offline): the wheel with
    ``--no-deps``, and its dependencies as this environment has them (a ``.pth`` naming its
    site-packages, read after the fresh venv's own, so the package comes from the wheel)."""
    wheel, _ = built
    venv = tmp_path / "fresh"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    subprocess.run(
        [
            *PIP,
            "--python",
            str(python),
            "install",
            "--no-deps",
            "--no-index",
            "--quiet",
            str(wheel),
        ],
        check=True,
        capture_output=True,
        timeout=120,
    )
    site = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    (Path(site) / "dependencies.pth").write_text("\n".join(sysconfig_paths()) + "\n")
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "OBSERVER_CONFIG_DIR": str(tmp_path)}
    run = {"capture_output": True, "text": True, "cwd": tmp_path, "timeout": 60, "env": env}
    helped = subprocess.run([venv / "bin" / "observer", "--help"], **run)  # type: ignore[call-overload]
    assert helped.returncode == 0 and "usage: observer" in helped.stdout
    listed = subprocess.run([venv / "bin" / "observer", "config", "themes"], **run)  # type: ignore[call-overload]
    assert listed.returncode == 0, listed.stderr
    themes = {line.split()[0] for line in listed.stdout.splitlines() if not line.startswith("#")}
    assert {"observer-dark", "observer-light", "dracula", "nord"} <= themes
    code = f"import importlib.metadata as m, observer; print(m.version({DISTRIBUTION!r}), observer.__file__)"
    shown = subprocess.run([python, "-I", "-c", code], **run)  # type: ignore[call-overload]
    assert shown.returncode == 0, shown.stderr
    version, location = shown.stdout.split()
    assert version == __import__("observer").__version__
    assert location.startswith(str(venv)), "the package must come from the installed wheel"


def sysconfig_paths() -> list[str]:
    """Where this environment's installed packages are (the dependencies the wheel needs)."""
    import sysconfig

    return sorted({sysconfig.get_path("purelib"), sysconfig.get_path("platlib")})
