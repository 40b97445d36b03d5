"""One module per CLI command.

Each module defines ``NAME`` (the sub-command), ``HELP`` (one line), ``register(parser)`` that adds its
arguments to an :class:`argparse.ArgumentParser`, and ``run(args) -> int``. Modules import only the
standard library at top level; heavy imports (Textual, websockets) happen inside ``run`` so that
``observer --help`` and the commands that do not need them stay fast.
"""
