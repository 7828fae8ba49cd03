"""Whether two checkpoints of one solve hold the same bits wherever both finished a level:
`python benchmarks/same_bits.py CHECKPOINT CHECKPOINT`, typically a solve on Ray and the same
command in one process (issue 16, item 7; docs/results.md, "On a cluster"); each a folder or a
URL on shared storage (solver/checkpoint.py). Prints the levels both hold and those that differ;
exit status 1 if any does.

With `--values`, the two may be solves by different code (the same command run from two trees,
say before and after a change to the engine): prints the largest difference of the values in
the levels both hold, and the levels where it passes `--within` (default 1e-12, issue 25's
"values unchanged"); exit status 1 if any does."""

import argparse
import sys

from solver.checkpoint import compare, differences
from solver.errors import InputError

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("first", metavar="CHECKPOINT")
parser.add_argument("second", metavar="CHECKPOINT")
parser.add_argument("--values", action="store_true",
                    help="compare the values, allowing the checkpoints' code to differ")
parser.add_argument("--within", type=float, default=1e-12,
                    help="with --values: the largest difference allowed (default 1e-12)")
options = parser.parse_args()
try:
    if options.values:
        found = differences(options.first, options.second)
        common = sorted(found)
        differ = [level for level in common if not found[level] <= options.within]
    else:
        common, differ = compare(options.first, options.second)
except InputError as error:
    print(f"error: {error}", file=sys.stderr)
    sys.exit(2)
print(f"{len(common)} levels in both" + (f" ({common[0]}-{common[-1]})" if common else ""))
if options.values:
    if common:
        worst = max(common, key=lambda level: found[level])
        print(f"largest difference {found[worst]:.3g} (level {worst})")
    print(f"every level within {options.within:g}" if not differ else
          f"levels beyond {options.within:g}: {differ}")
else:
    print("the same bits in every one" if not differ else f"levels that differ: {differ}")
sys.exit(1 if differ else 0)
