"""dice-solver: exact probabilities and optimal play for dice games."""

__version__ = "0.1.0"
