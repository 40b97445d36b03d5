"""Allow ``python -m observer``."""

from __future__ import annotations

from observer.cli import main

raise SystemExit(main())
