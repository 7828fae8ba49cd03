"""A picture of the two-player race: who is winning where, and where racing changes the play."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from solver.errors import InputError
from solver.games.dalek.race import RaceValues
from solver.games.dalek.report import contrast


def pyplot():
    """matplotlib's pyplot, drawing to files: a clear error when it is not installed (found
    before a solve, so a missing extra never costs one)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise InputError("plots need matplotlib: pip install 'dice-solver[plot]'") from None
    return plt


def plot_race(values: RaceValues, path: Path) -> Path:
    """Two panels over (my score, opponent's score), seat 1 about to move (a two-player race):
    my share of the win, and how far the win-optimal turn's expected points stray from the
    points-optimal turn (dots: positions where playing for points costs more than 0.1 % of the
    win)."""
    plt = pyplot()
    race = values.race
    target = race.target
    cells = [(a, b) for a in range(target) for b in range(target)
             if ((a, b), 0) in values.index]
    measures = contrast(values, [((a, b), 0) for a, b in cells])
    points_best = float(race.turn.graph.solve(
        np.arange(race.turn.graph.n_results, dtype=np.float64)).values[race.turn.root, 0])
    win = np.full((target, target), np.nan)
    lean = np.full((target, target), np.nan)
    costly = []
    for (a, b), (best, points_play, expected, _) in zip(cells, measures.tolist()):
        win[b, a] = best
        lean[b, a] = expected - points_best
        if best - points_play > 1e-3:
            costly.append((a, b))
    figure, (left, right) = plt.subplots(1, 2, figsize=(12, 5.2), constrained_layout=True)
    image = left.imshow(win, origin="lower", cmap="viridis", vmin=0, vmax=1)
    left.contour(win, levels=[0.25, 0.5, 0.75], colors="white", linewidths=0.8)
    figure.colorbar(image, ax=left, label="share of the win (seat 1 to move)")
    left.set(title=f"Dalek Dice race to {target}: value for the mover",
             xlabel="mover's score", ylabel="opponent's score")
    limit = np.nanmax(np.abs(lean)) or 1.0
    image = right.imshow(lean, origin="lower", cmap="coolwarm", vmin=-limit, vmax=limit)
    if costly:
        right.scatter(*zip(*costly), s=4, c="black", marker=".")
    figure.colorbar(image, ax=right, label="expected points, win-optimal minus points-optimal")
    right.set(title="Racing changes the turn (dots: points play costs > 0.1%)",
              xlabel="mover's score", ylabel="opponent's score")
    figure.savefig(path, dpi=110, metadata={"Software": None})
    plt.close(figure)
    return path
