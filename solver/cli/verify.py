"""`dice-solver verify GAME ...`: is a simulator right? Its samples against the exact distribution
of the same play (a goodness-of-fit verdict), or its moves against optimal play (regrets). Each
game's command is its own (`solver.games.<game>.verification.verify`). Formats and thresholds:
docs/verify.md."""

from __future__ import annotations

import click

from solver.cli.simulate import GameCommands


@click.group(cls=GameCommands, hook="verify")
def verify() -> None:
    """Check a simulator: samples against the exact distribution, or moves against optimal play.

    A game file with final scores and turns is judged by several statistics at once (Holm);
    --sequential reads samples as they arrive and stops as soon as the anytime-valid test
    rejects; --run drives a simulator in batches; --plan says how many samples a check needs;
    a rejection names the known alternative that fits best (docs/verify.md).

    Exit status: 0 when the samples are consistent with the exact distribution, 1 when the
    verdict rejects them, 2 for bad input."""
