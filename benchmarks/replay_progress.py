"""How steady a long solve's "time left" is under each window of the progress rate:
`python benchmarks/replay_progress.py LOG MANIFEST`, LOG a resumed level solve's stderr (its
progress lines) and MANIFEST its checkpoint's manifest.json. The lines' times are not logged, so
they are rebuilt from the seconds the checkpoint records for each level (a level's lines spread
evenly within it); the lines are then fed to solver.progress.Progress on that clock with each
share of the elapsed time as the window (`SHARE`; 0: the 5 minutes alone) and the range of the
time left it prints after the first quarter of the replay is shown (docs/results.md, issue 25)."""

import argparse
import io
import json
import re

from solver import progress
from solver.engine.levels import Status

LINE = re.compile(r"levels (\d+)/(\d+), positions ([\d,]+)/([\d,]+)")
LEFT = re.compile(r", ([\d.]+) (h|days) left")


def logged(path: str) -> list[tuple[int, int, int, int]]:
    """(levels done, levels, positions done, positions) of each progress line."""
    rows = []
    with open(path) as lines:
        for line in lines:
            if match := LINE.search(line):
                rows.append(tuple(int(group.replace(",", "")) for group in match.groups()))
    return rows


def clocked(rows: list[tuple[int, int, int, int]], manifest: str) -> list[tuple[float, tuple]]:
    """Each line with its rebuilt time: levels are solved from the highest down, so the level in
    work while `levels done` is k is the (k+1)-th highest the manifest lists."""
    with open(manifest) as file:
        seconds = {int(level): entry["stats"]["seconds"]
                   for level, entry in json.load(file)["levels"].items()}
    order = sorted(seconds, reverse=True)
    by_done: dict[int, list[tuple]] = {}
    for row in rows:
        by_done.setdefault(row[0], []).append(row)
    clock, timed = 0.0, []
    for done in sorted(by_done):
        if done >= len(order):
            break  # the level in work when the log ends: not in the manifest
        level_rows = by_done[done]
        spent = seconds[order[done]]
        timed += [(clock + spent * (i + 1) / (len(level_rows) + 1), row)
                  for i, row in enumerate(level_rows)]
        clock += spent
    return timed


def hours_left(timed: list[tuple[float, tuple]], share: float) -> list[float]:
    """The time left (hours) each printed line says with `share` as progress.SHARE."""
    progress.SHARE, now, stream = share, [0.0], io.StringIO()
    display = progress.Progress("replay", stream=stream, clock=lambda: now[0])
    for when, (levels_done, levels, done, positions) in timed:
        now[0] = when
        display(Status(levels, levels_done, positions, done, 0, 0, 0.0))
    return [float(m[1]) * (24 if m[2] == "days" else 1)
            for m in map(LEFT.search, stream.getvalue().splitlines()) if m]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("log")
    parser.add_argument("manifest")
    arguments = parser.parse_args()
    timed = clocked(logged(arguments.log), arguments.manifest)
    print(f"{len(timed)} lines over {timed[-1][0] / 3600:.2f} h (rebuilt)")
    for share in (0.0, 0.25, 0.5, 1.0):
        left = hours_left(timed, share)
        rest = left[len(left) // 4:]
        print(f"window {share:g} of the elapsed time (at least 5 min): time left after the "
              f"first quarter {min(rest):.1f}-{max(rest):.1f} h")


if __name__ == "__main__":
    main()
