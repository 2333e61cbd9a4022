"""Stage 2, the rules language: the Lark grammar's parser and its dataclass AST (syntax, nodes),
value kinds (kinds), the builtins table (builtins), the checked model of a whole spec (model), the
checker with its names, types and flow sanity (checker), and the size limits it enforces (limits).

Its product is a checked `Spec`; it runs nothing. May import `spec` and lark.
"""
