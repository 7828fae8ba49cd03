"""The one exception type for bad user input: the CLI turns it into one line and exit 2."""


class InputError(ValueError):
    """Raised for input a user can fix (unknown face, impossible position, malformed file)."""
