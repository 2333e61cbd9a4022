"""Stage 2, the rules language: the Lark grammar's parser and its dataclass AST (syntax, nodes),
value kinds (kinds), the builtins table (builtins), the checked model of a whole spec (model), the
checker with its names, types and flow sanity (checker), and the size limits it enforces (limits).

Its product is a checked `Spec`; it runs nothing. May import `spec` and lark.
"""

# The builtins table is filled by more than one module: the board builtins register themselves when
# boards.py is imported (it builds on builtins.Builtin), so the package imports it before any caller
# can read the table.
from . import boards as _boards  # noqa: E402,F401
from . import hidden as _hidden, teams as _teams  # noqa: E402,F401  (secret dice; sides: partner, team ...)
