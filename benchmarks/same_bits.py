"""Whether two checkpoints of one solve hold the same bits wherever both finished a level:
`python benchmarks/same_bits.py CHECKPOINT CHECKPOINT`, typically a solve on Ray and the same
command in one process (issue 16, item 7; docs/results.md, "On a cluster"); each a folder or a
URL on shared storage (solver/checkpoint.py). Prints the levels both hold and those that differ;
exit status 1 if any does."""

import sys

from solver.checkpoint import compare
from solver.errors import InputError

if len(sys.argv) != 3:
    sys.exit("usage: python benchmarks/same_bits.py CHECKPOINT CHECKPOINT")
try:
    common, differ = compare(sys.argv[1], sys.argv[2])
except InputError as error:
    print(f"error: {error}", file=sys.stderr)
    sys.exit(2)
print(f"{len(common)} levels in both" + (f" ({common[0]}-{common[-1]})" if common else ""))
print("the same bits in every one" if not differ else f"levels that differ: {differ}")
sys.exit(1 if differ else 0)
