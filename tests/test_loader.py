"""interpreter/loader.py: YAML to plain data plus the position of every key and value.

Bad files of every kind (malformed, duplicate keys, tabs, empty, not UTF-8,
missing) end in a positioned SpecError, never in a Python exception.
"""
from __future__ import annotations

import os

import pytest

from interpreter.spec.diagnostics import SpecError
from interpreter.spec.loader import load, load_file

from helpers import MINIMAL, write

DOC = """\
# comment first
game:
  name: STUN
  players: {min: 2, max: 6}
zones:
  draw:
    owner: shared
list:
  - first
  - {a: 1, b: [x, "y z"]}
code: |
  shuffle draw
  move a to b
quoted: 'it''s'
"""

# (path, key (line, col) or None, value (line, col), value end (line, col))
POSITIONS = [
    (("game",), (2, 1), (3, 3), (5, 1)),
    (("game", "name"), (3, 3), (3, 9), (3, 13)),
    (("game", "players"), (4, 3), (4, 12), (4, 28)),
    (("game", "players", "min"), (4, 13), (4, 18), (4, 19)),
    (("game", "players", "max"), (4, 21), (4, 26), (4, 27)),
    (("zones", "draw", "owner"), (7, 5), (7, 12), (7, 18)),
    (("list", 0), None, (9, 5), (9, 10)),
    (("list", 1), None, (10, 5), (10, 26)),
    (("list", 1, "b", 1), None, (10, 19), (10, 24)),
    (("code",), (11, 1), (11, 7), (14, 1)),
    (("quoted",), (14, 1), (14, 9), (14, 16)),
]


@pytest.mark.parametrize("path, key, value, end", POSITIONS, ids=[".".join(map(str, p[0])) for p in POSITIONS])
def test_positions_of_keys_and_values(tmp_path, path, key, value, end):
    doc = load_file(write(tmp_path, DOC))
    loc = doc.where[path]
    if key is None:
        assert loc.key is None
    else:
        assert (loc.key.line, loc.key.col) == key
    assert (loc.value.line, loc.value.col) == value
    assert (loc.value.end_line, loc.value.end_col) == end
    assert loc.value.path == doc.path


def test_plain_data_comes_back(tmp_path):
    doc = load_file(write(tmp_path, DOC))
    assert doc.data["game"] == {"name": "STUN", "players": {"min": 2, "max": 6}}
    assert doc.data["list"][1] == {"a": 1, "b": ["x", "y z"]}
    assert doc.data["code"] == "shuffle draw\nmove a to b\n"
    assert doc.data["quoted"] == "it's"
    assert doc.source == DOC


def test_span_falls_back_to_the_nearest_parent(tmp_path):
    doc = load_file(write(tmp_path, DOC))
    assert doc.span(("game", "players", "nope")) == doc.where[("game", "players")].value
    assert doc.span(("game", "nope"), key=True) == doc.where[("game",)].key
    assert doc.span(("list", 0), key=True) == doc.where[("list", 0)].value  # list items have no key


def test_text_maps_block_scalar_lines_to_the_file(tmp_path):
    doc = load_file(write(tmp_path, DOC))
    text = doc.text(("code",))
    assert text.value == "shuffle draw\nmove a to b\n"
    at = text.value.index("a to")
    s = text.locate(at, at + 1)
    assert (s.line, s.col) == (13, 8)


def test_text_of_a_quoted_scalar_skips_the_quote(tmp_path):
    doc = load_file(write(tmp_path, 'w: "count(draw) > 0"\n'))
    s = doc.text(("w",)).locate(0, 5)
    assert (s.line, s.col, s.end_col) == (1, 5, 10)


def test_values_are_plain_python(tmp_path):
    # dates and other YAML types become text: a spec holds only str, int, float, bool, None
    doc = load_file(write(tmp_path, "a: 2020-01-02\nb: true\nc: 1.5\nd: ~\n"))
    assert doc.data == {"a": "2020-01-02", "b": True, "c": 1.5, "d": None}


def test_minimal_spec_loads():
    doc = load(MINIMAL)
    assert doc.data["game"]["name"] == "Minimal"
    assert doc.sources == {MINIMAL: doc.source}


def test_loading_does_not_mutate_or_share_data(tmp_path):
    path = write(tmp_path, DOC)
    a, b = load_file(path), load_file(path)
    a.data["game"]["name"] = "changed"
    assert b.data["game"]["name"] == "STUN"


# ---- bad files: one positioned diagnostic each, never a Python exception ----------------
# (id, file bytes, code, (line, col), message contains, hint contains or None)
BAD = [
    ("unclosed_flow_list", b"game: [1, 2\nzones: 3\n", "E101", (2, 6), "expected ',' or ']'", None),
    ("unclosed_at_end_of_file", b"game: {a: 1\n", "E101", (2, 1), "malformed YAML", None),
    ("colon_in_plain_value", b"end:\n  when: a: b\n", "E101", (2, 10), "mapping values are not allowed", "quote"),
    ("bad_indentation", b"game:\n  - a\n b: 1\n", "E101", (3, 2), "malformed YAML", None),
    ("missing_colon", b"game:\n  name: x\n  players\n  zones: 1\n", "E101", (4, 3), "could not find expected ':'",
     "key: value"),
    ("tab_indentation", b"game:\n\tname: x\n", "E101", (2, 1), "'\\t'", None),
    ("two_documents", b"game: 1\n---\ngame: 2\n", "E101", (2, 1), "document", None),
    ("duplicate_top_key", b"game: 1\nzones: 2\ngame: 3\n", "E104", (3, 1), "duplicate key 'game'", "merge"),
    ("duplicate_nested_key", b"game:\n  name: a\n  players: 2\n  name: b\n", "E104", (4, 3),
     "duplicate key 'name'", "merge"),
    ("duplicate_in_flow_mapping", b"game: {min: 1, min: 2}\n", "E104", (1, 16), "duplicate key 'min'", None),
    ("complex_key", b"? [a, b]\n: 1\n", "E103", (1, 3), "plain name", None),
    pytest.param("merge_key", b"base: &b {x: 1}\ngame:\n  <<: *b\n", "E103", (3, 3), "merge keys", "extends"),
    ("null_key", b"~: 1\n", "E103", (1, 1), "a key must be a name", None),
    ("empty_file", b"", "E102", (1, 1), "empty", "game:"),
    ("only_comments", b"# nothing here\n\n", "E102", (1, 1), "empty", "game:"),
    ("only_whitespace", b"   \n\n", "E102", (1, 1), "empty", "game:"),
    ("not_utf8", b"game: \xff\xfe caf\xe9\n", "E100", (1, 1), "not UTF-8", None),
    ("utf16", "game: x\n".encode("utf-16"), "E100", (1, 1), "not UTF-8", None),
]


def _row(b):
    return pytest.param(*b.values[1:], id=b.values[0], marks=b.marks) if hasattr(b, "values") else \
        pytest.param(*b[1:], id=b[0])


@pytest.mark.parametrize("content, code, at, message, hint", [_row(b) for b in BAD])
def test_bad_file_gives_one_positioned_diagnostic(tmp_path, content, code, at, message, hint):
    path = os.path.join(tmp_path, "bad.yaml")
    with open(path, "wb") as fh:
        fh.write(content)
    with pytest.raises(SpecError) as info:
        load(path)
    ds = info.value.diagnostics
    assert [d.code for d in ds] == [code]
    d = ds[0]
    assert d.span.path == path
    assert (d.span.line, d.span.col) == at
    assert message in d.message
    if hint is not None:
        assert d.hint and hint in d.hint


def test_duplicate_key_notes_the_first_definition(tmp_path):
    with pytest.raises(SpecError) as info:
        load(write(tmp_path, "game:\n  name: a\n  players: 2\n  name: b\n"))
    assert info.value.diagnostics[0].note == "first defined at line 2"


def test_every_duplicate_key_is_reported(tmp_path):
    with pytest.raises(SpecError) as info:
        load(write(tmp_path, "a: 1\nb: 2\na: 3\nc:\n  d: 1\n  d: 2\nb: 4\n"))
    assert [(d.code, d.span.line) for d in info.value.diagnostics] == [("E104", 3), ("E104", 6), ("E104", 7)]


@pytest.mark.parametrize("make, code, message", [
    pytest.param(lambda tmp: os.path.join(tmp, "missing.yaml"), "E100", "cannot read spec: No such file",
                 id="missing_file"),
    # a folder is not a file to read (spec/files.py reads regular files only)
    pytest.param(lambda tmp: str(tmp), "E114", "the spec is a folder, not a regular file", id="directory"),
])
def test_unreadable_spec(tmp_path, make, code, message):
    path = make(tmp_path)
    with pytest.raises(SpecError) as info:
        load(path)
    (d,) = info.value.diagnostics
    assert d.code == code
    assert d.message.startswith(message)
    assert (d.span.path, d.span.line, d.span.col) == (path, 1, 1)


def test_tab_indentation_has_a_hint(tmp_path):
    with pytest.raises(SpecError) as info:
        load(write(tmp_path, "game:\n\tname: x\n"))
    assert "spaces" in (info.value.diagnostics[0].hint or "")


def test_python_tags_are_a_diagnostic_not_an_exception(tmp_path):
    with pytest.raises(SpecError) as info:
        load(write(tmp_path, "game: !!python/object:os.system x\n"))
    assert info.value.diagnostics[0].span.line == 1


def test_two_documents_message_reads_naturally(tmp_path):
    with pytest.raises(SpecError) as info:
        load(write(tmp_path, "game: 1\n---\ngame: 2\n"))
    assert ": but " not in info.value.diagnostics[0].message


def test_a_variant_extends_its_base(tmp_path):
    # Changing what the base gives is said with `set:`; sections only add (interpreter/variants.py).
    base = write(tmp_path, open(MINIMAL, encoding="utf-8").read(), "base.yaml")
    variant = write(tmp_path, "extends: base.yaml\nset:\n  options.target.default: 5\n", "short.yaml")
    doc = load(variant)
    assert doc.data["options"]["target"]["default"] == 5
    assert doc.data["game"]["name"] == "Minimal"
    assert doc.span(("options", "target", "default")).path == variant
    assert doc.span(("game", "name")).path == base


def test_a_variant_section_does_not_silently_override_its_base(tmp_path):
    write(tmp_path, open(MINIMAL, encoding="utf-8").read(), "base.yaml")
    variant = write(tmp_path, "extends: base.yaml\noptions:\n  target:\n    default: 5\n", "short.yaml")
    with pytest.raises(SpecError) as info:
        load(variant)
    (d,) = info.value.diagnostics
    assert d.code == "E111" and d.span.path == variant and "set:" in d.hint


def test_a_variant_with_a_missing_base(tmp_path):
    with pytest.raises(SpecError) as info:
        load(write(tmp_path, "extends: nowhere.yaml\n", "v.yaml"))
    assert info.value.diagnostics[0].code == "E100"
