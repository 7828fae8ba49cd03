"""The one exception type for bad user input: the CLI turns it into one line and exit 2."""


class InputError(ValueError):
    """Raised for input a user can fix (unknown face, impossible position, malformed file)."""


def brief(text: str, most: int = 24) -> str:
    """A user's text quoted in a message, shortened when long."""
    return repr(text if len(text) <= most else text[:most] + "...")


def quoted(value: object) -> str:
    """A value from a file, quoted and cut short enough for a one-line error."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
