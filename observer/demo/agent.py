"""A scripted coding agent for ``observer demo``: it behaves like a real one in a terminal.

It thinks (a spinner), streams prose, calls tools (reading a file, editing it with a coloured diff,
running tests with their output), takes over the whole screen for a moment (the alternate screen),
then asks a question and waits for a person's answer on stdin — and carries on according to it.
Plain standard library; ``OBSERVER_DEMO_SPEED`` (default 1) speeds everything up for tests.
"""

from __future__ import annotations

import os
import shutil
import sys
import time

SPEED = max(0.1, float(os.environ.get("OBSERVER_DEMO_SPEED", "1") or 1))
CSI = "\x1b["
RESET, BOLD, DIM = f"{CSI}0m", f"{CSI}1m", f"{CSI}2m"
RED, GREEN, YELLOW, BLUE, MAGENTA, CYAN, GREY = (f"{CSI}{n}m" for n in (31, 32, 33, 34, 35, 36, 90))
ORANGE = f"{CSI}38;2;255;158;100m"
SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"


def out(text: str) -> None:
    sys.stdout.write(text)
    sys.stdout.flush()


def pause(seconds: float) -> None:
    time.sleep(seconds / SPEED)


def spin(label: str, seconds: float) -> None:
    """A spinner on one line, erased at the end."""
    out(f"{CSI}?25l")
    steps = max(1, int(seconds * 12))
    for n in range(steps):
        out(f"\r{MAGENTA}{SPINNER[n % len(SPINNER)]}{RESET} {label}{DIM}…{RESET}")
        pause(1 / 12)
    out(f"\r{CSI}2K{CSI}?25h")


def stream(text: str, style: str = "") -> None:
    """Prose arriving word by word, like a model's tokens."""
    out(style)
    for word in text.split(" "):
        out(word + " ")
        pause(0.03)
    out(RESET + "\n")


def tool(name: str, argument: str) -> None:
    out(f"\n{GREEN}●{RESET} {BOLD}{name}{RESET}({argument})\n")
    pause(0.3)


def block(lines: list[str]) -> None:
    for line in lines:
        out(f"  {GREY}⎿{RESET}  {line}\n")
        pause(0.04)


def diff() -> None:
    tool("Edit", "src/calc.py")
    rows = [
        (GREY, "  12", "  def divide(a, b):"),
        (RED, "- 13", "      return round(a / b)"),
        (GREEN, "+ 13", "      if b == 0:"),
        (GREEN, "+ 14", '          raise ZeroDivisionError("b must not be 0")'),
        (GREEN, "+ 15", "      return a / b"),
    ]
    for colour, number, code in rows:
        background = {RED: f"{CSI}48;5;52m", GREEN: f"{CSI}48;5;22m"}.get(colour, "")
        out(f"  {colour}{number}{RESET} {background}{code}{RESET}\n")
        pause(0.08)


def tests(passed: bool) -> None:
    tool("Bash", "pytest -q")
    spin("Running tests", 1.2)
    if passed:
        block([f"{GREEN}....{RESET}", f"{GREEN}{BOLD}4 passed{RESET}{GREEN} in 0.04s{RESET}"])
        return
    block(
        [
            f"{GREEN}..{RESET}{RED}F{RESET}{GREEN}.{RESET}",
            f"{RED}FAILED{RESET} tests/test_calc.py::test_divide_keeps_fractions - assert 2 == 2.5",
            f"{RED}{BOLD}1 failed{RESET}, {GREEN}3 passed{RESET} in 0.05s",
        ]
    )


def full_screen() -> None:
    """A review pane on the alternate screen (DECSET 1049), like an agent's diff viewer."""
    cols, rows = shutil.get_terminal_size((100, 30))
    width, height = min(cols - 4, 70), min(rows - 4, 14)
    left, top = (cols - width) // 2, (rows - height) // 2
    out(f"{CSI}?1049h{CSI}?25l{CSI}2J")
    out(f"{CSI}{top};{left}H{CYAN}╭{'─' * (width - 2)}╮{RESET}")
    for y in range(1, height - 1):
        out(f"{CSI}{top + y};{left}H{CYAN}│{RESET}{' ' * (width - 2)}{CYAN}│{RESET}")
    out(f"{CSI}{top + height - 1};{left}H{CYAN}╰{'─' * (width - 2)}╯{RESET}")
    out(f"{CSI}{top + 1};{left + 3}H{BOLD}Reviewing changes{RESET} {DIM}(full screen){RESET}")
    files = ["src/calc.py", "tests/test_calc.py", "README.md"]
    for n, name in enumerate(files):
        out(f"{CSI}{top + 3 + n};{left + 3}H{YELLOW}M{RESET} {name}")
    bar = width - 12
    for step in range(bar + 1):
        filled = f"{ORANGE}{'█' * step}{GREY}{'░' * (bar - step)}{RESET}"
        out(f"{CSI}{top + height - 3};{left + 3}H{filled} {100 * step // bar:3d}%")
        pause(1.5 / bar)
    pause(0.6)
    out(f"{CSI}?1049l{CSI}?25h")


def ask(question: str) -> str:
    """Ask and wait for a line on stdin (the person watching takes control to answer)."""
    out(f"\n{YELLOW}?{RESET} {BOLD}{question}{RESET} {DIM}[y/N]{RESET} \a")
    answer = sys.stdin.readline()
    return answer.strip().lower()


def main() -> int:
    out(
        f"\x1b]0;demo agent · fix divide()\x07{BOLD}{BLUE}demo agent{RESET} {DIM}v1.0 · task: make divide() keep fractions{RESET}\n\n"
    )
    spin("Thinking", 2.0)
    stream("I'll start by reading the calculator module to see how divide() rounds its result.")
    tool("Read", "src/calc.py")
    block([f"{DIM}Read 24 lines{RESET}"])
    stream("divide() rounds to an integer, which is why 5 / 2 gives 2. I'll run the tests first.")
    tests(passed=False)
    spin("Thinking", 1.2)
    stream("As expected. I'll remove the rounding and make division by zero an explicit error.")
    diff()
    tests(passed=True)
    stream("All green. Let me review the whole change set before going further.")
    pause(0.5)
    full_screen()
    answer = ask("Should I commit these changes?")
    if answer.startswith("y"):
        tool("Bash", 'git commit -am "Keep fractions in divide()"')
        block(
            [
                f"{YELLOW}[main 3f9c2ab]{RESET} Keep fractions in divide()",
                "2 files changed, 9 insertions(+), 2 deletions(-)",
            ]
        )
        stream("Committed. divide() now keeps fractions and refuses to divide by zero.", GREEN)
    else:
        stream("Understood: I left the changes uncommitted for you to review.", YELLOW)
    stream("Done. Anything else?")
    pause(2.0)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except (KeyboardInterrupt, BrokenPipeError):
        out(f"{CSI}?1049l{CSI}?25h\n{RED}Interrupted.{RESET}\n")
        sys.exit(130)
