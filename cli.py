"""Run dice-solver from a checkout: `python cli.py ...` is the `dice-solver` console script."""

from solver.cli import main

if __name__ == "__main__":
    main()
