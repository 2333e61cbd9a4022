"""Secrets that are not cards: variables some seats may not read, and dice rolled for one seat's eyes.

Owns, for the language:
- the `visible:` of a variable (`public`, `owner`, `side`, `nobody`) and its checks (E493);
- the builtins `secret_roll(p, n, sides)` and `secret_dice(p, n, sides)`: dice only `p` sees
  rolled, and `player_roll`/`player_dice`: dice rolled by `p` for all to see (narrated as `p`'s
  wherever they are rolled); added to the builtins table when this module is imported, as boards.py
  does;
- the `reveal x` statement's check (E494): it names a variable that is not public;
- `hidden_reads(spec, e)`: which hidden variables an expression reads and whose, which the
  compiler uses to mark narration holes for redaction (runtime/redact.py), and lint to find
  hidden values stored where every seat reads them (lab/audit.py, W530, W531).

What a seat may read at run time (the visibility, a `reveal`, the sides) is decided in one
place, `runtime/redact.py`; this module only says what the rule text touches.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from . import nodes as N
from .builtins import BUILTINS, Builtin, roll_dice
from .kinds import T

VISIBILITIES = ("public", "owner", "side", "nobody")
SECRET_ROLLS = ("secret_roll", "secret_dice")
PUBLIC_ROLLS = ("roll", "dice", "player_roll", "player_dice")


@dataclass(slots=True)
class Read:
    """A read of a hidden variable: its scope, its rows (one per key of a keyed variable), and the
    expression naming its owner when the hole itself names it (`me.dice[1]`), else None (any seat's)."""
    scope: str
    rows: tuple[int, ...]
    owner: N.Expr | None
    name: str


def secret_roll_dice(st: Any, p: int, n: int, sides: int) -> list[int]:
    """`n` dice rolled for seat `p`'s eyes: logged as a roll by `p` that only `p` sees."""
    if not 0 <= p < st.n:
        from .builtins import RuleError
        raise RuleError(f"a secret roll for seat {p + 1}: there are {st.n} players")
    return roll_dice(st, n, sides, p, (p,))


def player_roll_dice(st: Any, p: int, n: int, sides: int) -> list[int]:
    """`n` dice rolled by seat `p` for every seat to see (a roll outside a turn is otherwise nobody's)."""
    if not 0 <= p < st.n:
        from .builtins import RuleError
        raise RuleError(f"a roll by seat {p + 1}: there are {st.n} players")
    return roll_dice(st, n, sides, p)


def _seat_dice(name: str, example: str, roll: Callable, total: bool, doc: str) -> Builtin:
    """A builtin `name(seat, n, sides)` that rolls dice as that seat with `roll`: their sum (`total`), or
    the list of them."""
    def make(a, t, p):
        who, n, sides = a
        if total:
            return lambda st, L: sum(roll(st, who(st, L), n(st, L), sides(st, L)))
        return lambda st, L: roll(st, who(st, L), n(st, L), sides(st, L))
    return Builtin(name, (T.PLAYER, T.INT, T.INT), (lambda ts: T.INT) if total else (lambda ts: T.INTS), doc, example,
                   make, chance=True)


HIDDEN_BUILTINS = {b.name: b for b in [
    _seat_dice("secret_roll", "secret_roll(me, 1, 6)", secret_roll_dice, True,
               "Roll dice that only one player sees and add them up: `secret_roll(me, 1, 6)`. Every other seat "
               "reads \"P1 rolls a hidden die\"; keep the result in a variable with `visible: owner`."),
    _seat_dice("secret_dice", "secret_dice(me, 5, 6)", secret_roll_dice, False,
               "Roll dice that only one player sees and keep each one (Liar's Dice's cup): a list of numbers."),
    _seat_dice("player_roll", "player_roll(seat(2), 1, 6)", player_roll_dice, True,
               "Roll dice as one player, for every seat to see, and add them up: `player_roll(p, 1, 6)` is "
               "narrated \"P2 rolls 5\" even in the setup, where a plain `roll` is nobody's (\"each player rolls "
               "one die\")."),
    _seat_dice("player_dice", "player_dice(me, 2, 6)", player_roll_dice, False,
               "Roll dice as one player, for every seat to see, and keep each one."),
]}
BUILTINS.update(HIDDEN_BUILTINS)


def var_of(spec: Any, scope: str, row: int) -> Any:
    """The VarDef of a variable row."""
    for v in spec.vars[scope].values():
        if v.index == row:
            return v
    return None


def is_hidden(spec: Any, scope: str, row: int) -> bool:
    v = var_of(spec, scope, row)
    return v is not None and v.visible != "public"


def hidden_reads(spec: Any, e: Any, depth: int = 0) -> list[Read]:
    """Every read of a non-public variable under `e` (through the spec's functions too)."""
    out: list[Read] = []
    bound: set[int] = set()  # slots bound inside `e`: an owner naming one is any seat
    for n in N.walk(e):
        if isinstance(n, (N.Filter, N.MapList, N.LetIn, N.Aggregate)):
            bound.add(n.slot)
    for n in N.walk(e):
        ref = getattr(n, "ref", None)
        if not ref:
            continue
        if isinstance(n, N.Attr) and ref[0] == "pvar" and is_hidden(spec, "player", ref[1]):
            out.append(Read("player", (ref[1],), _owner(n.obj, bound), n.name))
        elif isinstance(n, N.Name) and ref[0] == "gvar" and is_hidden(spec, "global", ref[1]):
            out.append(Read("global", (ref[1],), None, n.id))
        elif isinstance(n, N.Name) and ref[0] == "pvar" and is_hidden(spec, "player", ref[1]):  # sum(players, x)
            out.append(Read("player", (ref[1],), None, n.id))
        elif isinstance(n, N.Index) and ref[0] == "keyed":
            kv = spec.keyed[ref[1]][ref[2]]
            if is_hidden(spec, kv.scope, kv.index):
                rows = _key_rows(kv, n.key)
                owner = _owner(n.obj.obj, bound) if kv.scope == "player" and isinstance(n.obj, N.Attr) else None
                out.append(Read(kv.scope, rows, owner, kv.name))
        elif isinstance(n, N.Call) and ref[0] == "func" and depth < 8:
            body = spec.functions[n.func].value
            if body is not None and body.ast is not None:
                out.extend(Read(r.scope, r.rows, None, r.name) for r in hidden_reads(spec, body.ast, depth + 1))
    return out


def _key_rows(kv: Any, key: Any) -> tuple[int, ...]:
    """The rows an index of a keyed variable may read: the key's own for a written key, else every key's."""
    if isinstance(key, (N.Int, N.Str)) and kv.board is None and key.value in kv.keys:
        return (kv.index + kv.keys.index(key.value),)
    return tuple(range(kv.index, kv.index + len(kv.keys)))


def _owner(e: N.Expr, bound: set[int]) -> N.Expr | None:
    for n in N.walk(e):
        if isinstance(n, N.Name) and n.ref and n.ref[0] == "local" and n.ref[1] in bound:
            return None
        if isinstance(n, N.Call) and BUILTINS.get(n.func) is not None and BUILTINS[n.func].chance:
            return None
    return e


def rolls_in(e: Any, names: tuple[str, ...]) -> N.Call | None:
    """The first call of one of the builtins `names` under `e`."""
    for n in N.walk(e):
        if isinstance(n, N.Call) and n.func in names and getattr(n, "ref", None) == ("builtin", n.func):
            return n
    return None


def check_vars(checker: Any) -> None:
    """E493: a visibility that cannot hold for this variable."""
    s = checker.spec
    for scope in ("global", "player", "turn"):
        for name, raw in ((s.doc.data.get("state") or {}).get(scope) or {}).items():
            vis = raw.get("visible", "public") if isinstance(raw, dict) else "public"
            at = s.doc.span(("state", scope, name, "visible"))
            if vis == "public":
                continue
            if scope == "turn":
                checker.error("E493", f"turn variable '{name}' cannot be hidden: it belongs to no player", at,
                              hint="keep a secret in a player variable (`visible: owner`)")
            elif scope == "global" and vis != "nobody":
                checker.error("E493", f"global variable '{name}' belongs to no player, so it cannot be `visible: {vis}`",
                              at, hint="`visible: nobody` keeps it from every seat until a rule says `reveal`")
            elif vis == "side" and s.teams is None:
                checker.error("E493", f"'{name}' is visible to its owner's side, but the game declares no sides", at,
                              hint="declare them (`game: teams: {size: 2}`) or use `visible: owner`")


def check_reveal(checker: Any, code: Any, sc: Any, st: Any) -> None:
    """`reveal x`: x is a variable that is not public (`me.dice`, `me.dice[2]`, `secret`)."""
    s = checker.spec
    t = st.target
    st.scope, st.rows, st.owner = "player", (), None
    if isinstance(t, N.Attr) and t.name in s.keyed["player"]:  # every key of a keyed player variable
        ot = checker.expr(t.obj, code, sc)
        checker.expect_type(code, ot, T.PLAYER, t.obj, "reveal")
        kv = s.keyed["player"][t.name]
        st.rows, st.owner = tuple(range(kv.index, kv.index + len(kv.keys))), t.obj
    elif isinstance(t, N.Name) and sc.lookup(t.id) is None and t.id in s.keyed["global"]:
        kv = s.keyed["global"][t.id]
        st.scope, st.rows = "global", tuple(range(kv.index, kv.index + len(kv.keys)))
    else:
        checker.expr(t, code, sc)
        ref: tuple = getattr(t, "ref", None) or ("?",)
        if ref[0] == "pvar":
            st.rows, st.owner = (ref[1],), t.obj
        elif ref[0] == "gvar":
            st.scope, st.rows = "global", (ref[1],)
        elif ref[0] == "keyed":  # one key: its row, found at run time (the compiler reads the key)
            kv = s.keyed[ref[1]][ref[2]]
            st.scope = kv.scope
            st.rows = ()
            st.owner = t.obj.obj if kv.scope == "player" else None
            if not is_hidden(s, kv.scope, kv.index):
                checker.error("E494", "this variable is public already: every seat reads it", code, t.pos,
                              hint="give it `visible: owner` (or `side`, `nobody`) under `state:` to keep it secret "
                                   "until now")
        else:
            checker.error("E494", "reveal names a variable: a player's (`reveal me.dice`) or the game's", code, t.pos,
                          hint="reveal shows a hidden variable's value to every seat")
            return
    if st.rows and not is_hidden(s, st.scope, st.rows[0]):
        checker.error("E494", "this variable is public already: every seat reads it", code, t.pos,
                      hint="give it `visible: owner` (or `side`, `nobody`) under `state:` to keep it secret until now")
