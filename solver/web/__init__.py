"""The page for the table: `dice-solver serve` serves one page (no outside assets: it works with
no internet) and a JSON API that runs the same commands as the command line."""
