"""`python -m interpreter.cli`: the full command line."""
from .commands import main

main()
