"""Fuzzing the front end (hypothesis): `check` answers any input, and a spec that checks runs.

Inputs: random YAML text and random YAML data; shipped specs (games/*.yaml)
corrupted character by character, or with lines dropped, duplicated or
swapped; random rule expressions and statements placed in the minimal spec.
For every one, `rulewright check` must answer with positioned diagnostics
and exit 0 or 1: never a traceback, never "internal error", never exit 70,
never a hang (each example runs under a time guard). When a generated spec
checks clean, a short `simulate` must end with finished/stalled/error counts.

Every input that once found a bug is kept in tests/fuzz_corpus/ and replayed
by `test_corpus` (a plain test). Example counts are small so the suite stays
fast; set RULEWRIGHT_FUZZ=N to run N examples per test (a fuzzing session).
"""
from __future__ import annotations

import contextlib
import functools
import glob
import json
import os
import re
import shutil
import signal

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from interpreter.lang import syntax
from interpreter.cli.commands import cli

from helpers import minimal_text

SHIPPED = sorted(glob.glob(os.path.join("games", "*.yaml")))
CORPUS = os.path.join("tests", "fuzz_corpus")
EXAMPLES = int(os.environ.get("RULEWRIGHT_FUZZ", "0"))
CHECK_SECONDS = 20.0  # a whole `check` of the largest shipped spec takes well under a second
POSITIONED = re.compile(r"^.+?:\d+:\d+: error\[E\d{3}\]: ", re.M)


def fuzz(n: int):
    """Hypothesis settings: `n` examples (or RULEWRIGHT_FUZZ), no deadline (the time guard is ours)."""
    return settings(max_examples=EXAMPLES or n, deadline=None, derandomize=not EXAMPLES,
                    suppress_health_check=list(HealthCheck))


class Hang(Exception):
    pass


@contextlib.contextmanager
def time_guard(seconds: float, what: str):
    """Fail the example (instead of hanging the suite) when it runs longer than `seconds`."""
    def fire(_sig, _frame):
        raise Hang(f"{what} did not answer within {seconds} s")
    old = signal.signal(signal.SIGALRM, fire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


@pytest.fixture(autouse=True, scope="module")
def _no_cache_writes():
    """Fuzzed rule texts must not fill the on-disk cache of parsed rules."""
    saved = syntax._ast_cache.save
    syntax._ast_cache.save = lambda: None
    yield
    syntax._ast_cache.save = saved


def invoke(args: list[str], seconds: float = CHECK_SECONDS):
    with time_guard(seconds, " ".join(args[:1])):
        return CliRunner().invoke(cli, args)


def assert_answered(result, path: str) -> None:
    """Exit 0 or 1, no traceback; errors are positioned diagnostics."""
    out = result.output
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"check raised {type(result.exception).__name__}: {result.exception}") \
            from result.exception
    assert result.exit_code in (0, 1), (result.exit_code, out[-2000:])
    assert "Traceback" not in out and "internal error" not in out, out[-2000:]
    if result.exit_code == 1:
        assert POSITIONED.search(out), f"errors without a position:\n{out[-2000:]}"
    else:
        assert f"{path}: ok" in out, out[-2000:]


def check_text(tmp_path, text: str | bytes, name: str = "fuzz.yaml", run: bool = True) -> int:
    """`check` one spec text; when it is clean, also simulate a few short games. Returns the exit code.

    The shipped specs are copied beside it, so a variant's `extends:` finds its base.
    """
    for base in SHIPPED:
        shutil.copy(base, str(tmp_path))
    path = os.path.join(str(tmp_path), name)
    with open(path, "wb") as fh:
        fh.write(text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass"))
    r = invoke(["check", path])
    assert_answered(r, path)
    if r.exit_code == 0 and run:
        simulate_clean(path)
    return r.exit_code


def simulate_clean(path: str) -> None:
    from interpreter.api import load_spec
    spec, _ = load_spec(path)
    players = max(spec.min_players, 1)
    r = invoke(["simulate", path, "-p", str(players), "--games", "3", "--seed", "1", "--budget", "2000", "--json"])
    if r.exception is not None and not isinstance(r.exception, SystemExit):
        raise AssertionError(f"simulate raised {type(r.exception).__name__}: {r.exception}") from r.exception
    assert "Traceback" not in r.output and "internal error" not in r.output, r.output[-2000:]
    assert r.exit_code == 0, r.output[-2000:]
    d = json.loads(r.output)
    assert d["finished"] + d["stalled"] + d["errors"] == d["games"] == 3, d


def shipped_text(k: int) -> str:
    with open(SHIPPED[k % len(SHIPPED)], encoding="utf-8") as fh:
        return fh.read()


# -- random and corrupted YAML ----------------------------------------------------------------
yaml_scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False),
                         st.text(max_size=30), st.sampled_from(["count(deck) > 0", "me.score += 1", "{", "- x",
                                                               "&a", "*a", "!!python/object", "|", ">"]))
yaml_data = st.recursive(yaml_scalars, lambda kids: st.one_of(
    st.lists(kids, max_size=4),
    st.dictionaries(st.one_of(st.sampled_from(["game", "components", "zones", "state", "flow", "actions", "end",
                                               "cards", "count", "in", "do", "when", "name", "players", "min",
                                               "max", "turn", "owner", "extends"]), st.text(max_size=8)),
                    kids, max_size=5)), max_leaves=25)


@fuzz(40)
@given(text=st.text(max_size=300))
def test_random_text(tmp_path_factory, text):
    check_text(tmp_path_factory.mktemp("t"), text)


@fuzz(40)
@given(data=yaml_data)
def test_random_yaml_data(tmp_path_factory, data):
    import yaml
    check_text(tmp_path_factory.mktemp("d"), yaml.safe_dump(data, allow_unicode=True))


@fuzz(40)
@given(which=st.integers(0, 10), edits=st.lists(st.tuples(st.floats(0, 1), st.integers(0, 2),
                                                          st.text(max_size=3)), min_size=1, max_size=4))
def test_corrupted_characters(tmp_path_factory, which, edits):
    text = shipped_text(which)
    for at, how, s in edits:
        i = int(at * len(text))
        text = text[:i] + s + text[i:] if how == 0 else text[:i] + text[i + 1:] if how == 1 else \
            text[:i] + s + text[i + len(s):]
    check_text(tmp_path_factory.mktemp("c"), text)


@fuzz(20)
@given(which=st.integers(0, 10), data=st.binary(min_size=1, max_size=8), at=st.floats(0, 1))
def test_corrupted_bytes(tmp_path_factory, which, data, at):
    raw = shipped_text(which).encode("utf-8")
    i = int(at * len(raw))
    check_text(tmp_path_factory.mktemp("b"), raw[:i] + data + raw[i:])


# -- shipped specs with their data mutated (past the YAML layer: into schema, model and checker) ---------------------
def _paths(data, path=()):
    yield path
    if isinstance(data, dict):
        for k, v in data.items():
            yield from _paths(v, path + (k,))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from _paths(v, path + (i,))


def _at(data, path):
    for k in path:
        data = data[k]
    return data


@functools.lru_cache(maxsize=None)
def _shipped_data(k: int):
    import yaml
    return yaml.safe_load(shipped_text(k))


@fuzz(40)
@given(which=st.integers(0, 10), data=st.data(), n=st.integers(1, 3))
def test_shipped_specs_with_data_mutated(tmp_path_factory, which, data, n):
    import copy

    import yaml
    doc = copy.deepcopy(_shipped_data(which))
    for _ in range(n):
        paths = [p for p in _paths(doc) if p]
        target = data.draw(st.sampled_from(paths), label="target")
        how = data.draw(st.sampled_from(["delete", "scalar", "elsewhere", "empty"]), label="how")
        parent, key = _at(doc, target[:-1]), target[-1]
        if how == "delete":
            del parent[key]
            continue
        if how == "scalar":
            value = data.draw(yaml_scalars, label="value")
        elif how == "elsewhere":  # a value taken from another place of the spec: plausible, but wrong here
            value = copy.deepcopy(_at(doc, data.draw(st.sampled_from(paths), label="source")))
        else:
            value = data.draw(st.sampled_from([{}, [], "", None]), label="empty")
        parent[key] = value
    check_text(tmp_path_factory.mktemp("x"), yaml.safe_dump(doc, allow_unicode=True, sort_keys=False))


# -- shipped specs with lines dropped, duplicated or swapped ----------------------------------------
line_edits = st.lists(st.tuples(st.sampled_from(["drop", "dup", "swap"]), st.floats(0, 1), st.floats(0, 1)),
                      min_size=1, max_size=3)


def edit_lines(text: str, edits) -> str:
    lines = text.split("\n")
    for how, a, b in edits:
        i, j = int(a * (len(lines) - 1)), int(b * (len(lines) - 1))
        if how == "drop":
            del lines[i]
        elif how == "dup":
            lines.insert(i, lines[i])
        else:
            lines[i], lines[j] = lines[j], lines[i]
    return "\n".join(lines)


@fuzz(40)
@given(which=st.integers(0, 10), edits=line_edits)
def test_shipped_specs_with_lines_edited(tmp_path_factory, which, edits):
    check_text(tmp_path_factory.mktemp("l"), edit_lines(shipped_text(which), edits))


@fuzz(30)
@given(edits=line_edits)
def test_minimal_spec_with_lines_edited(tmp_path_factory, edits):
    check_text(tmp_path_factory.mktemp("m"), edit_lines(minimal_text(), edits))


# -- random rule expressions and statements ------------------------------------------------------------
NAMES = ["me", "players", "others", "winners", "deck", "discard", "hand", "pot", "score", "draws", "card", "p",
         "x", "option", "reading", "turn", "total_of", "take", "count", "sum", "top", "bottom", "best", "worst",
         "highest", "lowest", "first", "seat", "next", "empty", "contains", "max", "min", "abs", "range",
         "points", "kind", "target", "bomb_rule", "all_cards", "coin", "bomb", "type", "chips", "zz"]
FIELDS = ["hand", "score", "points", "kind", "seat", "type", "target", "bomb_rule", "draws", "nothing"]
ints = st.one_of(st.integers(-3, 12), st.sampled_from([0, 1, 2 ** 31, 10 ** 18]),
                 st.integers(0, 10 ** 40))
atoms = st.one_of(ints.map(str), st.sampled_from(NAMES),
                  st.sampled_from(['"coin"', '"bomb"', '"all_cards"', "'x'", '"{me} has {me.score}"', '"{"',
                                   '"{count(deck)}"', "true", "false", '""']))


def _compound(e):
    return st.one_of(
        e.map(lambda a: f"({a})"),
        st.tuples(e, st.sampled_from(["+", "-", "*", "//", "%", "==", "!=", "<", "<=", ">", ">=", "and", "or"]),
                  e).map(lambda t: f"{t[0]} {t[1]} {t[2]}"),
        e.map(lambda a: f"not {a}"), e.map(lambda a: f"-{a}"),
        st.tuples(e, st.sampled_from(FIELDS)).map(lambda t: f"{t[0]}.{t[1]}"),
        st.tuples(e, e).map(lambda t: f"{t[0]}[{t[1]}]"),
        st.tuples(st.sampled_from(NAMES), st.lists(e, max_size=3)).map(lambda t: f"{t[0]}({', '.join(t[1])})"),
        st.lists(e, max_size=3).map(lambda xs: f"[{', '.join(xs)}]"),
        st.tuples(st.sampled_from(["x", "p", "c"]), e, e).map(lambda t: f"[{t[0]} in {t[1]} where {t[2]}]"),
        st.tuples(e, e, e).map(lambda t: f"{t[0]} if {t[1]} else {t[2]}"),
        st.tuples(e, st.sampled_from(["x", "p", "c"]), e).map(lambda t: f"[{t[0]} for {t[1]} in {t[2]}]"),
        st.tuples(e, e, e).map(lambda t: f"[{t[0]} for x in {t[1]} where {t[2]}]"),
        st.tuples(e, e, e).map(lambda t: f"if {t[0]} then {t[1]} elif {t[2]} then {t[1]} else {t[2]}"),
        st.tuples(e, e).map(lambda t: f"let x = {t[0]} in {t[1]}"),
        st.tuples(st.sampled_from(["sum", "best", "worst", "highest", "most"]), e, e).map(
            lambda t: f"{t[0]} x in {t[1]} of {t[2]}"),  # aggregates (`most` is no aggregate: E460)
        st.tuples(e, e, e).map(lambda t: f"best x in {t[0]} where {t[1]} by {t[2]}"),
    )


exprs = st.recursive(atoms, _compound, max_leaves=12)
junk = st.sampled_from(["", "", "", ")", "(", ":", "=", "&&", "#", "\t", "'", '"', "end", "if", ",", "."])


def _indent(block: str) -> str:
    return "\n".join("  " + ln for ln in block.split("\n"))


def _stmt(s):
    """Statements, each a list of lines (compound ones nest `s`)."""
    simple = st.one_of(
        st.tuples(exprs, exprs).map(lambda t: f"move {t[0]} to {t[1]}"),
        exprs.map(lambda a: f"shuffle {a}"),
        st.tuples(st.sampled_from(["x", "y", "card"]), exprs).map(lambda t: f"let {t[0]} = {t[1]}"),
        st.tuples(st.sampled_from(["pot", "me.score", "turn.draws", "x", "p.score"]),
                  st.sampled_from(["=", "+=", "-="]), exprs).map(lambda t: f"{t[0]} {t[1]} {t[2]}"),
        st.tuples(st.sampled_from(["take", "total_of", "count", "zz"]), st.lists(exprs, max_size=2)).map(
            lambda t: f"{t[0]}({', '.join(t[1])})"),
        st.sampled_from(["end turn", "end game", "pass", 'say "{me} plays."', "shuffle deck",
                         "move top(deck) to me.hand", "me.score += 1", "pot += 1", "skip next player",
                         "reverse turn order", "extra turn", "let x = roll(2, 6)", "let x = dice(3, 6)"]),
        exprs.map(lambda a: f"next turn to {a}"),
        st.tuples(exprs, exprs).map(lambda t: f"pot = random({t[0]}, {t[1]})"),
        st.tuples(st.sampled_from(["x", "c"]), exprs).map(lambda t: f"choose {t[0]} from {t[1]}"),
        st.tuples(exprs, exprs).map(lambda t: f"choose subset x of {t[0]} where {t[1]}"),
    )
    compound = st.one_of(
        st.tuples(exprs, s).map(lambda t: f"if {t[0]}:\n{_indent(t[1])}"),
        st.tuples(exprs, s, s).map(lambda t: f"if {t[0]}:\n{_indent(t[1])}\nelse:\n{_indent(t[2])}"),
        st.tuples(exprs, s).map(lambda t: f"for each x in {t[0]}:\n{_indent(t[1])}"),
        st.tuples(exprs, s).map(lambda t: f"repeat {t[0]}:\n{_indent(t[1])}"),
        st.tuples(exprs, s).map(lambda t: f"while {t[0]}:\n{_indent(t[1])}"),
        st.tuples(s, s, exprs).map(
            lambda t: f'choose:\n  option "a":\n{_indent(_indent(t[0]))}\n  option "b" when {t[2]}:\n'
                      f'{_indent(_indent(t[1]))}'),
    )
    return st.one_of(simple, compound)


blocks = st.recursive(st.sampled_from(["pass", "me.score += 1", "move top(deck) to me.hand"]),
                      lambda s: st.lists(_stmt(s), min_size=1, max_size=3).map("\n".join), max_leaves=8)


def minimal_with(when: str | None = None, do: str | None = None) -> str:
    text = minimal_text()
    if when is not None:
        text = text.replace("    when: count(deck) > 0\n", "    when: " + json.dumps(when) + "\n", 1)
    if do is not None:
        text = text.replace("    do: |\n      take(top(deck))\n",
                            "    do: |\n" + "".join("      " + ln + "\n" for ln in do.split("\n")), 1)
    return text


@fuzz(60)
@given(e=exprs, j=junk, at=st.floats(0, 1))
def test_random_expressions(tmp_path_factory, e, j, at):
    i = int(at * len(e))
    check_text(tmp_path_factory.mktemp("e"), minimal_with(when=e[:i] + j + e[i:]))


@fuzz(60)
@given(block=blocks, j=junk, at=st.floats(0, 1))
def test_random_statements(tmp_path_factory, block, j, at):
    i = int(at * len(block))
    check_text(tmp_path_factory.mktemp("s"), minimal_with(do=block[:i] + j + block[i:]))


@fuzz(40)
@given(block=blocks)
def test_random_well_formed_statements_run(tmp_path_factory, block):
    """Mostly well-formed blocks: many check clean, and then they must also run."""
    check_text(tmp_path_factory.mktemp("w"), minimal_with(do=block))


# -- well-typed random programs: most check clean, so the engine runs them -----------------------------------------
# Typed expressions over the minimal spec (zones deck/discard, hand per player; pot, score, turn.draws).
t_int = st.recursive(
    st.one_of(st.integers(-2, 6).map(str), st.sampled_from(["count(deck)", "count(me.hand)", "pot", "me.score",
                                                            "turn.draws", "sum(me.hand, points)", "total_of(me)",
                                                            "count(players)", "me.seat", "count(discard)",
                                                            "sum c in me.hand where c.points > 0 of c.points * 2",
                                                            "highest p in players of p.score + count(p.hand)",
                                                            "lowest c in deck of c.points"])),
    lambda e: st.one_of(
        st.tuples(e, st.sampled_from(["+", "-", "*", "//", "%"]), e).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        st.tuples(st.sampled_from(["max", "min"]), e, e).map(lambda t: f"{t[0]}({t[1]}, {t[2]})"),
        e.map(lambda a: f"abs({a})")), max_leaves=4)
t_bool = st.one_of(
    st.tuples(t_int, st.sampled_from(["==", "!=", "<", "<=", ">", ">="]), t_int).map(" ".join),
    st.sampled_from(["true", "false", "empty(deck)", "not empty(me.hand)", 'reading.bomb_rule == "all_cards"',
                     "contains(me.hand, top(deck))", "count(deck) > 0 and count(me.hand) < 3"]))
t_zone = st.sampled_from(["deck", "discard", "me.hand", "next(me).hand", "seat(1).hand", "first(best(players, score)).hand"])
t_cards = st.one_of(t_zone, st.tuples(st.sampled_from(["c", "k"]), t_zone, t_bool).map(
    lambda t: f"[{t[0]} in {t[1]} where {t[2].replace('top(deck)', t[0])} or {t[0]}.points > 0]"))
t_card = st.sampled_from(["top(deck)", "bottom(deck)", "top(discard)", "top(me.hand)"])
t_cards = st.one_of(t_cards, st.sampled_from(["best c in deck by c.points", "worst c in me.hand by c.points * 2"]))
t_ints = st.sampled_from(["[c.points for c in me.hand]", "[p.score + 1 for p in players where p != me]", "range(1, 3)"])


def _typed_stmt(s):
    simple = st.one_of(
        st.tuples(st.one_of(t_card, t_cards), t_zone).map(lambda t: f"move {t[0]} to {t[1]}"),
        t_zone.map(lambda z: f"shuffle {z}"),
        st.tuples(st.sampled_from(["pot", "me.score", "turn.draws"]), st.sampled_from(["=", "+=", "-="]),
                  t_int).map(" ".join),
        t_int.map(lambda a: f"let n = {a}"), t_card.map(lambda c: f"take({c})"),
        t_ints.map(lambda a: f"pot = sum({a})"),
        t_int.map(lambda a: f"pot = roll({a}, 6)"), t_int.map(lambda a: f"pot = random(1, {a})"),
        st.sampled_from(["next turn to seat(1)", "next turn to next(me)", "skip next player", "reverse turn order",
                         "extra turn", "choose together c from p.hand for each p in players:\n  p.score += 1",
                         "choose together c from [x in p.hand where x.points > 0] for each p in others as \"keep\":\n"
                         "  move c to discard"]),
        st.sampled_from(["end turn", "pass", 'say "{me} has {me.score} and {count(me.hand)} cards."',
                         "choose c from me.hand", "choose q from others", "choose subset cs of me.hand where "
                         "sum(cs, points) >= 1"]))
    compound = st.one_of(
        st.tuples(t_bool, s).map(lambda t: f"if {t[0]}:\n{_indent(t[1])}"),
        st.tuples(t_bool, s, s).map(lambda t: f"if {t[0]}:\n{_indent(t[1])}\nelse:\n{_indent(t[2])}"),
        st.tuples(t_cards, s).map(lambda t: f"for each c in {t[0]}:\n{_indent(t[1])}"),
        st.tuples(t_int, s).map(lambda t: f"repeat {t[0]}:\n{_indent(t[1])}"),
        st.tuples(t_bool, s).map(lambda t: f"while {t[0]}:\n{_indent(t[1])}"),
        st.tuples(s, s, t_bool).map(
            lambda t: f'choose by next(me) "pick":\n  option "a":\n{_indent(_indent(t[0]))}\n'
                      f'  option "b" when {t[2]}:\n{_indent(_indent(t[1]))}\n'
                      f'  option for q in players "{{q}}":\n    q.score += 1'))
    return st.one_of(simple, simple, compound)


typed_blocks = st.recursive(st.sampled_from(["pass", "me.score += 1", "take(top(deck))"]),
                            lambda s: st.lists(_typed_stmt(s), min_size=1, max_size=4).map("\n".join),
                            max_leaves=10)


@fuzz(60)
@given(action=typed_blocks, proc=typed_blocks, setup=typed_blocks)
def test_random_typed_programs_check_and_run(tmp_path_factory, action, proc, setup):
    text = minimal_with(do=action + "\nextra()")
    text = text.replace("procedures:\n", "procedures:\n  extra:\n    do: |\n"
                        + "".join("      " + ln + "\n" for ln in proc.split("\n")), 1)
    text = text.replace("setup:\n  do: shuffle deck\n", "setup:\n  do: |\n    shuffle deck\n"
                        + "".join("    " + ln + "\n" for ln in setup.split("\n")), 1)
    check_text(tmp_path_factory.mktemp("p"), text)


# -- regressions the fuzzers found, each as a plain test ---------------------------------------------------------------
@pytest.mark.parametrize("line", [100, 1234])
def test_a_diagnostic_position_is_never_read_as_an_emoji_code(tmp_path, line):
    """rich turned ":100:" into an emoji: `spec.yaml:100:7` was printed as `spec.yaml💯7`."""
    text = minimal_text().replace("game:\n", "#\n" * (line - 5) + "game:\n", 1)
    text = text.replace("  name: Minimal\n", "  name: Minimal\n  colour: red\n", 1)
    path = os.path.join(str(tmp_path), "spec.yaml")
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)
    r = invoke(["check", path])
    assert f"spec.yaml:{line}:3: error[E201]" in r.output, r.output


@pytest.mark.parametrize("where, rule, code", [
    ("when", "[].hand", "E432"),
    ("when", "[].hand.points > 0", "E432"),
    ("when", "[x in [] where x.points > 0] == []", "E432"),
    ("when", "sum([], points) > 0", "E434"),
    ("when", "best([], score) == []", "E434"),
    ("do", "for each x in []:\n  x.score += 1", "E432"),
    ("do", 'for each x in []:\n  say "{x.hand}"', "E432"),
], ids=lambda v: v if isinstance(v, str) and len(v) < 20 else None)
def test_the_elements_of_an_empty_list_have_no_fields(tmp_path, where, rule, code):
    """`[]` has elements of no kind: the checker let `[].hand` through and compiling it crashed."""
    path = os.path.join(str(tmp_path), "spec.yaml")
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(minimal_with(**{where: rule}))
    r = invoke(["check", path])
    assert_answered(r, path)
    assert f"error[{code}]" in r.output and "cannot tell" in r.output, r.output


# -- the corpus: every input that once found a bug ----------------------------------------------------------
def corpus_files() -> list[str]:
    return sorted(f for f in glob.glob(os.path.join(CORPUS, "*")) if not f.endswith(".md"))


@pytest.mark.parametrize("path", corpus_files(), ids=os.path.basename)
def test_corpus(tmp_path, path):
    with open(path, "rb") as fh:
        raw = fh.read()
    check_text(tmp_path, raw, name=os.path.basename(path))
