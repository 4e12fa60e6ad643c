"""Machine instructions per quote check, by kind of case: a cost that load does not move.

    python bench/quote_instructions.py                        # this checkout's ragcite
    PYTHONPATH=/work/main/src python bench/quote_instructions.py  # another, to compare

On a shared 2-core machine the wall clock and even CPU time of `bench/peers.py --parts
quotes` swing by a third between runs; the count of instructions executed does not (two
runs of the same code differ by about 0.1 %). The script runs itself under valgrind's
callgrind (installed with valgrind, run by hand), counting only inside `functools.reduce`,
which the measured loop alone calls, with a dump after each kind. It checks bench/peers.py's
quote cases grouped by kind (verbatim, retyped, absent) and passage (ASCII or not), every
round cold (`clear_caches`), and prints thousands of instructions per check. Fewer
instructions is not always less time (allocation and cache misses count too): measure the
time as well, side by side.
"""

from __future__ import annotations

import functools
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

ROUNDS = 2
KINDS = ("verbatim", "retyped", "absent")  # as `quote_cases` makes them, in turn


def groups() -> dict[str, list[tuple[str, str]]]:
    from peers import quote_cases

    out: dict[str, list[tuple[str, str]]] = {}
    for i, (quote, passage) in enumerate(quote_cases(3000)):
        name = f"{KINDS[i % 3]}/{'ascii' if passage.isascii() else 'non-ascii'}"
        out.setdefault(name, []).append((quote, passage))
    return dict(sorted(out.items()))


def measured() -> None:
    """Under callgrind: check each group `ROUNDS` times inside `functools.reduce`."""
    from ragcite.verify.normalize import clear_caches
    from ragcite.verify.quotes import locate_quote

    cases = groups()
    for group in cases.values():  # tables built on first use are not counted
        for quote, passage in group:
            locate_quote(quote, passage)
    for name, group in cases.items():

        def one_round(_: int, __: int, group: list[tuple[str, str]] = group) -> int:
            clear_caches()
            for quote, passage in group:
                locate_quote(quote, passage)
            return 0

        functools.reduce(one_round, range(ROUNDS), 0)
        print(f"{name} {len(group)}")


def instructions(dump: Path) -> int:
    """The instructions counted in one callgrind dump (its `summary:` line)."""
    found = re.search(r"^summary: (\d+)", dump.read_text(), re.MULTILINE)
    if found is None:
        sys.exit(f"{dump}: no 'summary:' line; is it a callgrind dump?")
    return int(found[1])


def main() -> None:
    if sys.argv[1:] == ["--measured"]:
        measured()
        return
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "callgrind.out"
        run = subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                "--toggle-collect=functools_reduce",
                "--dump-after=functools_reduce",
                f"--callgrind-out-file={out}",
                sys.executable,
                __file__,
                "--measured",
            ],
            capture_output=True,
            text=True,
            check=True,
            env=os.environ | {"PYTHONHASHSEED": "0"},
        )
        sizes = [line.split() for line in run.stdout.splitlines() if line.strip()]
        dumps = sorted(Path(folder).glob("callgrind.out.*"), key=lambda p: int(p.suffix[1:]))
        counts = [instructions(dump) for dump in dumps]
    import ragcite

    print(f"ragcite from {Path(ragcite.__file__).parent}")
    total = 0
    for (name, size), count in zip(sizes, counts, strict=True):
        total += count
        print(
            f"{name:20s} {int(size):5d} cases {count / ROUNDS / int(size) / 1000:7.1f}k instr/check"
        )
    cases = sum(int(size) for _, size in sizes)
    print(f"{'all':20s} {cases:5d} cases {total / ROUNDS / cases / 1000:7.2f}k instr/check")


if __name__ == "__main__":
    main()
