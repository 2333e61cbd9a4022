"""Parsing rule text into AST nodes: the only module that imports Lark.

Owns: building the LALR parser from grammar/rules.lark once per process,
turning Lark's parse tree into `nodes` dataclasses (spans kept), parsing the
{expr} holes of narration strings, and translating Lark's errors into
positioned diagnostics with words a rule author knows (never terminal names
like RPAR). It does not resolve names or types (checker.py).
"""
from __future__ import annotations

import functools
import os
import pickle
from typing import Any

from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError
from lark.indenter import Indenter

from . import nodes as N
from ..spec.diagnostics import Diagnostic, SpecError, Text

GRAMMAR = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "grammar", "rules.lark")

# How a terminal is called in an error message.
_WORDS = {
    "LPAR": "'('", "RPAR": "')'", "LSQB": "'['", "RSQB": "']'", "COLON": "':'", "COMMA": "','",
    "DOT": "'.'", "EQ": "'='", "PLUS": "'+'", "MINUS": "'-'", "NAME": "a name", "INT": "a number",
    "STRING": "a quoted string", "_NL": "the end of the line", "_INDENT": "an indented block",
    "_DEDENT": "the end of the block", "COMPARE_OP": "a comparison", "MUL_OP": "'*', '//' or '%'",
    "$END": "the end of the text", "MORETHAN": "'>'", "LESSTHAN": "'<'", "PLUS_EQ": "'+='",
    "MINUS_EQ": "'-='",
}
# What an unexpected token is called after "unexpected".
_UNEXPECTED = {"_NL": "end of line", "_INDENT": "indentation", "_DEDENT": "end of the block",
               "$END": "end of the rule"}
# Terminals that start a value, and terminals that continue one: a long "expected" list becomes a phrase.
_VALUE_START = {"NAME", "INT", "STRING", "LPAR", "LSQB", "MINUS", "TRUE", "FALSE", "NOT"}
_CONNECTORS = {"TO", "FROM", "OF", "WHERE", "AS", "BY", "IN", "WHEN"}  # words that join parts of a statement
_OPERATORS = {"PLUS", "MINUS", "MUL_OP", "COMPARE_OP", "AND", "OR", "IF", "DOT", "LSQB", "LPAR"}


class _RulesIndenter(Indenter):
    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR", "LSQB"]
    CLOSE_PAREN_types = ["RPAR", "RSQB"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 4


@functools.lru_cache(maxsize=1)
def parser() -> Lark:
    with open(GRAMMAR, encoding="utf-8") as fh:
        grammar = fh.read()
    kw = dict(parser="lalr", start=["block", "condition"], postlex=_RulesIndenter(), propagate_positions=True,
              maybe_placeholders=True)
    try:  # Lark keeps the built parser in a cache file keyed by the grammar's hash: later runs skip the build
        return Lark(grammar, cache=_cache_file(grammar), **kw)
    except OSError:
        return Lark(grammar, **kw)


class _AstCache:
    """Parsed rule texts by (kind, text), kept on disk between runs.

    Each entry is stored pickled and unpickled on every use, so callers get a
    fresh tree they may annotate. The file sits next to Lark's grammar cache
    and is keyed by the same grammar digest plus this module's source.
    """

    MAX_ENTRIES = 20_000  # past this, only the texts this process used are kept (edits add entries forever)

    def __init__(self) -> None:
        self.entries: dict[tuple[str, str], bytes] | None = None
        self.dirty = False
        self.path: str | None = None
        self.used: set[tuple[str, str]] = set()

    def _load(self) -> dict:
        if self.entries is None:
            self.entries = {}
            # Keyed by the node classes too: a pickled tree of other classes would unpickle broken.
            with open(GRAMMAR, encoding="utf-8") as fh, open(__file__, encoding="utf-8") as me, \
                    open(N.__file__, encoding="utf-8") as nodes:
                self.path = _cache_file(fh.read() + me.read() + nodes.read()).replace(".lark-cache", ".asts")
            try:
                with open(self.path, "rb") as fh:
                    data = pickle.load(fh)
                if isinstance(data, dict):
                    self.entries = data
            except Exception:  # a damaged cache file (any unpickling failure) is an empty cache
                self.entries = {}
        return self.entries

    def get(self, key: tuple[str, str]):
        self.used.add(key)
        blob = self._load().get(key)
        if blob is None:
            return None
        try:
            return pickle.loads(blob)
        except Exception:  # a damaged entry: parse again
            return None

    def put(self, key: tuple[str, str], ast) -> None:
        self._load()[key] = pickle.dumps(ast, protocol=pickle.HIGHEST_PROTOCOL)
        self.used.add(key)
        self.dirty = True

    def save(self) -> None:
        if not self.dirty or self.path is None:
            return
        self.dirty = False
        if len(self.entries) > self.MAX_ENTRIES:
            self.entries = {k: v for k, v in self.entries.items() if k in self.used}
        tmp = None
        try:
            import tempfile
            fd, tmp = tempfile.mkstemp(dir=os.path.dirname(self.path), prefix=".asts-")
            with os.fdopen(fd, "wb") as fh:
                pickle.dump(self.entries, fh, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, self.path)
        except OSError:
            if tmp is not None and os.path.exists(tmp):
                os.unlink(tmp)  # a cache that cannot be written only costs time


_ast_cache = _AstCache()


MAX_NESTING = 100  # levels of the parse tree (the shipped specs need 14); deeper rules are refused
MAX_DIGITS = 15


class _TooDeep(Exception):
    def __init__(self, pos: int):
        self.pos = pos


def _check_depth(tree: Tree) -> Tree:
    """Refuse a tree deeper than MAX_NESTING (an iterative walk: everything after it recurses)."""
    stack = [(tree, 1)]
    while stack:
        node, d = stack.pop()
        if isinstance(node, Tree):
            if d > MAX_NESTING:
                raise _TooDeep(0 if node.meta.empty else node.meta.start_pos)
            stack.extend((c, d + 1) for c in node.children)
    return tree


def _cached_parse(src: str, kind: str):
    key = (kind, src)
    ast = _ast_cache.get(key)
    if ast is None:
        ast = _ToAst(src).transform(_check_depth(parser().parse(src, start=kind)))
        _ast_cache.put(key, ast)
    return ast


def save_cache() -> None:
    _ast_cache.save()


def _cache_file(grammar: str) -> str:
    import hashlib
    import lark
    from ..spec.cache import cache_folder
    digest = hashlib.sha256((grammar + lark.__version__).encode()).hexdigest()[:16]
    return os.path.join(cache_folder(), f"grammar-{digest}.lark-cache")


def _pos(meta_or_tok: Any) -> N.Pos:
    if isinstance(meta_or_tok, Token):
        return (meta_or_tok.start_pos, meta_or_tok.end_pos)
    if getattr(meta_or_tok, "empty", True):
        return (0, 0)
    return (meta_or_tok.start_pos, meta_or_tok.end_pos)


class _SyntaxProblem(Exception):
    def __init__(self, message: str, pos: N.Pos, hint: str | None = None):
        self.message, self.pos, self.hint = message, pos, hint


_ESCAPES = {"n": "\n", "t": "\t"}  # any other escaped character stands for itself: \" \' \\ \{ \}


def unescape(raw: str) -> str:
    """A text's characters with its backslash escapes decoded."""
    if "\\" not in raw:
        return raw
    out, i = [], 0
    while i < len(raw):
        ch = raw[i]
        if ch == "\\" and i + 1 < len(raw):
            out.append(_ESCAPES.get(raw[i + 1], raw[i + 1]))
            i += 2
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def _unquote(tok: Token) -> str:
    return unescape(str(tok)[1:-1])


@v_args(meta=True)
class _ToAst(Transformer):
    def __init__(self, text: str):
        super().__init__()
        self.text = text

    # -- entry points
    def block(self, meta, items):
        return [s for s in items if s is not None]

    def condition(self, meta, items):
        return items[0]

    # -- statements
    def move(self, meta, c):
        return N.Move(_pos(meta), c[0], c[1])

    def shuffle(self, meta, c):
        return N.Shuffle(_pos(meta), c[0])

    def let(self, meta, c):
        return N.Let(_pos(meta), str(c[0]), c[2])

    def assign_op(self, meta, c):
        return str(c[0])

    def expr_stmt(self, meta, c):
        target, op, value = c
        if op is None:
            if not isinstance(target, N.Call):
                raise _SyntaxProblem("this expression does nothing on its own", target.pos,
                                     "a statement is an action such as `move`, an assignment or a procedure call")
            if target.func == "reveal" and len(target.args) == 1:  # lang/hidden.py, unless a procedure is so named
                return N.Reveal(_pos(meta), target.args[0], target)
            return N.CallStmt(_pos(meta), target)
        if not isinstance(target, (N.Name, N.Attr, N.Index)):
            raise _SyntaxProblem("cannot assign to this expression", target.pos,
                                 "assign to a variable such as `supply` or `me.chips`")
        return N.Assign(_pos(meta), target, op, value)

    def end_turn(self, meta, c):
        return N.EndTurn(_pos(meta))

    def end_game(self, meta, c):
        return N.EndGame(_pos(meta))

    def next_turn(self, meta, c):
        return N.TurnOrder(_pos(meta), "to", c[0])

    def skip_turn(self, meta, c):
        return N.TurnOrder(_pos(meta), "skip")

    def reverse_order(self, meta, c):
        return N.TurnOrder(_pos(meta), "reverse")

    def extra_turn(self, meta, c):
        return N.TurnOrder(_pos(meta), "extra")

    def say(self, meta, c):
        return N.Say(_pos(meta), self._template(c[0]))

    def pass_(self, meta, c):
        return N.Pass(_pos(meta))

    def by(self, meta, c):
        return c[0]

    def prompt(self, meta, c):
        return self._template(c[0])

    def choose_value(self, meta, c):
        return N.ChooseValue(_pos(meta), str(c[0]), c[1], c[2], c[3])

    def choose_subset(self, meta, c):
        return N.ChooseSubset(_pos(meta), str(c[0]), c[1], c[2], c[3], c[4])

    def if_(self, meta, c):
        cond, body, *rest = c
        branches = [(cond, body)]
        orelse = None
        for r in rest:
            if isinstance(r, tuple) and r[0] == "elif":
                branches.append((r[1], r[2]))
            elif isinstance(r, tuple) and r[0] == "else":
                orelse = r[1]
        return N.If(_pos(meta), branches, orelse)

    def elif_(self, meta, c):
        return ("elif", c[0], c[1])

    def else_(self, meta, c):
        return ("else", c[0])

    def for_each(self, meta, c):
        return N.ForEach(_pos(meta), str(c[0]), c[1], c[2])

    def repeat(self, meta, c):
        return N.Repeat(_pos(meta), c[0], c[1])

    def while_(self, meta, c):
        return N.While(_pos(meta), c[0], c[1])

    def when(self, meta, c):
        return c[0]

    def option(self, meta, c):
        label, cond, body = c
        return N.Option(_pos(meta), self._template(label), cond, body)

    def option_for(self, meta, c):
        var, coll, label, cond, body = c
        return N.Option(_pos(meta), self._template(label), cond, body, str(var), coll)

    def choose_together(self, meta, c):
        return N.ChooseTogether(_pos(meta), str(c[0]), c[1], str(c[2]), c[3], c[4], c[5])

    def choose_option(self, meta, c):
        by, label, *options = c
        return N.ChooseOption(_pos(meta), by, self._template(label) if label is not None else None, options)

    def suite(self, meta, c):
        return [s for s in c if s is not None]

    # -- expressions
    def ternary(self, meta, c):
        return N.Ternary(_pos(meta), c[1], c[0], c[2])

    def or_(self, meta, c):
        return N.Binary(_pos(meta), "or", c[0], c[1])

    def and_(self, meta, c):
        return N.Binary(_pos(meta), "and", c[0], c[1])

    def not_(self, meta, c):
        return N.Unary(_pos(meta), "not", c[0])

    def compare(self, meta, c):
        return N.Binary(_pos(meta), str(c[1]), c[0], c[2])

    def binary(self, meta, c):
        return N.Binary(_pos(meta), str(c[1]), c[0], c[2])

    def negate(self, meta, c):
        return N.Unary(_pos(meta), "-", c[1])

    def attribute(self, meta, c):
        return N.Attr(_pos(meta), c[0], str(c[1]), _pos(c[1]))

    def index(self, meta, c):
        return N.Index(_pos(meta), c[0], c[1])

    def call(self, meta, c):
        name, *args = c
        return N.Call(_pos(meta), str(name), _pos(name), [a for a in args if a is not None])

    def integer(self, meta, c):
        if len(c[0]) > MAX_DIGITS:
            raise _SyntaxProblem(f"this number has more than {MAX_DIGITS} digits", _pos(c[0]),
                                 "numbers in rules count cards, points and turns")
        return N.Int(_pos(meta), int(c[0]))

    def string(self, meta, c):
        return N.Str(_pos(meta), _unquote(c[0]))

    def true(self, meta, c):
        return N.Bool(_pos(meta), True)

    def false(self, meta, c):
        return N.Bool(_pos(meta), False)

    def name(self, meta, c):
        return N.Name(_pos(meta), str(c[0]))

    def list_(self, meta, c):
        return N.ListLit(_pos(meta), [x for x in c if x is not None])

    def filter(self, meta, c):
        return N.Filter(_pos(meta), str(c[0]), c[1], c[2])

    def take_while(self, meta, c):
        return N.Filter(_pos(meta), str(c[0]), c[1], c[2], stop=True)

    def quantifier(self, meta, c):
        func, var, coll, cond = c
        return N.Quantifier(_pos(meta), str(func), _pos(func), str(var), coll, cond)

    def if_expr(self, meta, c):
        # `if a then x elif b then y else z` is `x if a else (y if b else z)`
        cond, then, *rest = c
        orelse = rest.pop()
        for econd, ethen in reversed(rest):
            orelse = N.Ternary((econd.pos[0], orelse.pos[1]), econd, ethen, orelse)
        return N.Ternary(_pos(meta), cond, then, orelse)

    def elif_expr(self, meta, c):
        return (c[0], c[1])

    def let_in(self, meta, c):
        return N.LetIn(_pos(meta), str(c[0]), c[2], c[3])

    def map_(self, meta, c):
        return N.MapList(_pos(meta), c[0], str(c[1]), c[2], c[3])

    def aggregate(self, meta, c):
        func, var, coll, cond, value = c
        return N.Aggregate(_pos(meta), str(func), _pos(func), str(var), coll, cond, value)

    # -- narration strings with {expr} holes
    def _template(self, tok: Token) -> N.Template:
        return parse_template(self.text, tok.start_pos + 1, str(tok)[1:-1])


def parse_template(text: str, offset: int, raw: str) -> N.Template:
    """Split `raw` (found at `offset` in `text`) into literal parts and expressions."""
    parts: list[str | N.Expr] = []
    i = 0
    while i < len(raw):
        j = _unescaped(raw, "{", i)
        if j < 0:
            parts.append(unescape(raw[i:]))
            break
        if j > i:
            parts.append(unescape(raw[i:j]))
        k = raw.find("}", j)
        if k < 0:
            raise _SyntaxProblem("'{' is never closed in this text", (offset + j, offset + j + 1),
                                 "write {expression} to show a value")
        inner = raw[j + 1:k]
        try:
            expr = _ToAst(inner).transform(_check_depth(parser().parse(inner, start="condition")))
        except _TooDeep:
            raise _SyntaxProblem(f"this expression nests more than {MAX_NESTING} levels deep",
                                 (offset + j, offset + k + 1), "split it: name a part with `let` or a function") from None
        except (UnexpectedInput, VisitError, _SyntaxProblem):
            shown = inner if len(inner) <= 40 else inner[:37] + "..."
            raise _SyntaxProblem(f"'{{{shown}}}' is not an expression", (offset + j, offset + k + 1),
                                 "write {expression} to show a value, e.g. {me} or {count(draw)}") from None
        _shift(expr, offset + j + 1)
        parts.append(expr)
        i = k + 1
    return N.Template((offset - 1, offset + len(raw) + 1), parts)


def _unescaped(raw: str, ch: str, start: int) -> int:
    """The first `ch` from `start` that is not escaped with a backslash (-1 if none)."""
    i = start
    while i < len(raw):
        if raw[i] == "\\":
            i += 2
            continue
        if raw[i] == ch:
            return i
        i += 1
    return -1


def _shift(expr: N.Node, by: int) -> None:
    for n in N.walk(expr):
        n.pos = (n.pos[0] + by, n.pos[1] + by)
        if isinstance(n, N.Attr):
            n.name_pos = (n.name_pos[0] + by, n.name_pos[1] + by)
        if isinstance(n, (N.Call, N.Aggregate, N.Quantifier)):
            n.func_pos = (n.func_pos[0] + by, n.func_pos[1] + by)


def _bad_dedent(src: str) -> int:
    """Offset of the first line that dedents to a column no open block starts at."""
    stack, offset = [0], 0
    for line in src.split("\n"):
        body = line.lstrip(" \t")
        if body and not body.startswith("#"):
            col = len(line) - len(body)
            if col > stack[-1]:
                stack.append(col)
            else:
                while col < stack[-1]:
                    stack.pop()
                if col != stack[-1]:
                    return offset + col
        offset += len(line) + 1
    return 0


def _expected(tokens: set[str]) -> str:
    tokens = {t for t in tokens if t != "COMMENT" and not t.startswith("__")}
    keywords = sorted(t.lower() for t in tokens & _CONNECTORS)
    if len(tokens) > 6 and keywords:
        return "expected " + " or ".join(f"'{k}'" for k in keywords) + " here (or an operator)"
    if len(tokens) > 6:
        if len(tokens & _VALUE_START) >= 4:
            return "expected a value here: a name, a number, a quoted text, a list or '('"
        if len(tokens & _OPERATORS) >= 3:
            return "expected an operator (such as + - * == and or) or the end of the rule"
        return "check the words around here against the rules language (grammar/rules.lark)"
    words = sorted({_WORDS.get(t, f"'{t.lower()}'" if t.isupper() else t) for t in tokens})
    return "expected " + ", ".join(words[:-1]) + (" or " if len(words) > 1 else "") + words[-1] if words else ""


def parse(text: Text, kind: str) -> Any:
    """Parse `text` as a `block` (statements) or a `condition` (one expression).

    Raises SpecError with E3xx diagnostics located in the spec file.
    """
    src = text.value
    if kind == "condition":
        # A condition may be folded over several YAML lines; it is one expression.
        src = src.replace("\r", " ").replace("\n", " ") + "\n"  # a trailing comment needs its line end
    elif not src.endswith("\n"):
        src += "\n"
    try:
        return _cached_parse(src, kind)
    except _TooDeep as exc:
        raise SpecError([Diagnostic("E304", f"this rule nests more than {MAX_NESTING} levels deep",
                                    text.locate(exc.pos, exc.pos + 1),
                                    hint="split it: name a part with `let`, a function or a procedure")]) from None
    except VisitError as exc:
        inner = exc.orig_exc
        if isinstance(inner, _SyntaxProblem):
            raise SpecError([Diagnostic("E302", inner.message, text.locate(*inner.pos), hint=inner.hint)]) from None
        raise
    except UnexpectedCharacters as exc:
        ch = src[exc.pos_in_stream] if exc.pos_in_stream < len(src) else "?"
        hint = "this character is not part of the rules language"
        if ch in "\"'":
            hint = f"this text is never closed: add the closing {ch} on the same line"
        if ch == "=" and src[exc.pos_in_stream:exc.pos_in_stream + 2] != "==":
            hint = "compare with '=='; assign with '=' only in effects"
        if ch == "&" or ch == "|":
            hint = "write `and` / `or`"
        msg = f"unclosed text starting with {ch}" if ch in "\"'" else f"unexpected character '{ch}'"
        raise SpecError([Diagnostic("E301", msg, text.locate(exc.pos_in_stream, exc.pos_in_stream + 1),
                                    hint=hint)]) from None
    except UnexpectedToken as exc:
        tok = exc.token
        if tok.type == "$END" or tok.type == "_DEDENT":
            msg = "the rule ends too early"
            start = len(src.rstrip())
            span = text.locate(max(0, start - 1), start)
        else:
            shown = str(tok).strip() or tok.type
            msg = f"unexpected {_UNEXPECTED[tok.type]}" if tok.type in _UNEXPECTED else f"unexpected '{shown}'"
            start = tok.start_pos if tok.start_pos is not None else 0
            if tok.type == "_NL":
                start = max(0, start)
                span = text.locate(start - 1 if start else 0, start)
            else:
                span = text.locate(start, tok.end_pos or start + 1)
        try:  # the tokens that really can come next (LALR's `expected` merges states)
            accepted = set(exc.interactive_parser.accepts()) or set(exc.expected)
        except Exception:
            accepted = set(exc.expected)
        expected = _expected(accepted)
        hint = expected or None
        before = src[:start].rstrip()
        if tok.type == "NAME" and before[-1:] in ("\"", "'") and start > 0 and src[start - 1] in "\"'":
            # `say "a "b" c"`: the text ended at the inner quote
            hint = f"a quote inside a text is written \\{before[-1]} (or use the other kind of quotes around the text)"
        if kind == "condition" and tok.type == "EQ":
            hint = "compare with '=='"
        raise SpecError([Diagnostic("E300", f"syntax error: {msg}", span, hint=hint)]) from None
    except UnexpectedEOF as exc:
        start = len(src.rstrip())
        raise SpecError([Diagnostic("E300", "syntax error: the rule ends too early", text.locate(max(0, start - 1), start),
                                    hint=_expected(set(exc.expected)) or None)]) from None
    except UnexpectedInput as exc:  # any other Lark input error
        raise SpecError([Diagnostic("E300", "syntax error", text.locate(getattr(exc, "pos_in_stream", 0) or 0))]) from None
    except Exception as exc:  # the Indenter raises on inconsistent dedent
        if type(exc).__name__ == "DedentError":
            at = _bad_dedent(src)
            raise SpecError([Diagnostic("E303", "inconsistent indentation", text.locate(at, at + 1),
                                        hint="indent this line like the block it belongs to (or an enclosing one)")]) from None
        raise
