"""The bundled scripted agent that ``observer demo`` runs in a PTY."""

from __future__ import annotations

from pathlib import Path

AGENT = Path(__file__).with_name("agent.py")
"""The agent script: run it with the Python interpreter in a terminal."""
