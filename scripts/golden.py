"""Write or check the golden playthroughs of ``tests/golden/``.

    python scripts/golden.py            # check: show what moved, exit 1 if anything did
    python scripts/golden.py --write    # regenerate every file after an intended change

Each playthrough is played again with its seeded policy by the engines of this checkout
(``src/`` comes first on the path) and compared with its file; ``git diff tests/golden/``
after ``--write`` shows exactly what a change of the rules moved.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# This checkout's engines and its tests package, before any installed copy.
sys.path[:0] = [str(ROOT / "src"), str(ROOT)]

from tests.golden.cases import PLAYTHROUGHS  # noqa: E402
from tests.golden.playthrough import DIRECTORY, Playthrough, difference, record  # noqa: E402


def _selected(names: Sequence[str]) -> list[Playthrough]:
    known = {p.name: p for p in PLAYTHROUGHS}
    unknown = [name for name in names if name not in known]
    if unknown:
        raise SystemExit(
            f"unknown playthrough {', '.join(unknown)} (known: {', '.join(sorted(known))})"
        )
    return [known[name] for name in names] if names else list(PLAYTHROUGHS)


def _strays() -> list[Path]:
    """JSON files of the golden directory that no playthrough writes."""
    written = {p.path for p in PLAYTHROUGHS}
    return sorted(path for path in DIRECTORY.glob("*.json") if path not in written)


def main(argv: Sequence[str] | None = None) -> int:
    """Check (the default) or ``--write`` the golden files; 1 when a check finds a change."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--write", action="store_true", help="regenerate the files")
    mode.add_argument("--check", action="store_true", help="compare only (the default)")
    parser.add_argument("names", nargs="*", help="playthroughs to handle (default: all)")
    args = parser.parse_args(argv)
    chosen = _selected(args.names)
    moved = 0
    for playthrough in chosen:
        text = record(playthrough).render()
        path = playthrough.path
        old = path.read_text(encoding="utf-8") if path.exists() else ""
        if args.write:
            if text != old:
                path.write_text(text, encoding="utf-8")
                moved += 1
                print(f"wrote {path.relative_to(ROOT)}")
            continue
        found = difference(playthrough.name, old, text)
        if found is not None:
            moved += 1
            print(found["diff"], end="\n\n")
    for stray in _strays():
        print(f"{stray.relative_to(ROOT)}: no playthrough of tests/golden/cases.py writes it")
    verb = "rewrote" if args.write else "moved"
    print(f"{verb} {moved} of {len(chosen)} golden playthroughs")
    return 1 if moved and not args.write else 0


if __name__ == "__main__":
    sys.exit(main())
