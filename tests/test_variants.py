"""Variants and expansions (interpreter/variants.py): merging, positions, golden errors.

Golden diagnostics: each bad variant in tests/variants/ sits beside its exact
expected `rulewright check` output in tests/variants/expected/. Regenerate with
`RULEWRIGHT_REGEN=1 python -m pytest tests/test_variants.py` and review the diff.
"""
import glob
import os

import pytest

from interpreter import api
from interpreter.spec import loader
from interpreter.spec.diagnostics import SourceCache, SpecError, render
from interpreter.spec.variants import merge

HERE = "tests/variants"
BAD = sorted(p for p in glob.glob(f"{HERE}/*.yaml") if os.path.basename(p) not in ("base.yaml", "cycle_b.yaml"))


def _rendered(path: str) -> str:
    spec, diags = api.check_spec(path)
    cache = SourceCache()
    return "\n".join(render(d, cache) for d in diags) + "\n"


@pytest.mark.parametrize("path", BAD, ids=[os.path.basename(p)[:-5] for p in BAD])
def test_golden_errors(path):
    expected_path = os.path.join(HERE, "expected", os.path.basename(path)[:-5] + ".txt")
    got = _rendered(path)
    if os.environ.get("RULEWRIGHT_REGEN"):
        os.makedirs(os.path.dirname(expected_path), exist_ok=True)
        with open(expected_path, "w", encoding="utf-8") as fh:
            fh.write(got)
    with open(expected_path, encoding="utf-8") as fh:
        assert got == fh.read()
    assert "error[" in got


def _variant(tmp_path, text: str, name: str = "v.yaml") -> str:
    base = tmp_path / "base.yaml"
    if not base.exists():
        base.write_text(open(f"{HERE}/base.yaml", encoding="utf-8").read(), encoding="utf-8")
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return str(p)


def test_set_changes_a_value_and_points_into_the_variant(tmp_path):
    path = _variant(tmp_path, "extends: base.yaml\nset:\n  options.goal.default: 3\n")
    doc = loader.load(path)
    assert doc.data["options"]["goal"]["default"] == 3
    assert "extends" not in doc.data and "set" not in doc.data
    span = doc.span(("options", "goal", "default"))
    assert (span.path, span.line, span.col) == (path, 3, 25)
    base_span = doc.span(("options", "goal", "values"))
    assert base_span.path.endswith("base.yaml")
    assert set(doc.sources) == {path, str(tmp_path / "base.yaml")}


def test_sections_are_added_deeply(tmp_path):
    path = _variant(tmp_path, "extends: base.yaml\nstate:\n  player:\n    bonus: {type: int}\n"
                              "options:\n  goal:\n    label: points to win\n")
    doc = loader.load(path)
    assert list(doc.data["state"]["player"]) == ["score", "bonus"]
    assert doc.data["options"]["goal"] == {"values": [5, 3], "default": 5, "label": "points to win"}
    assert doc.span(("state", "player", "bonus")).path == path
    assert doc.span(("state", "player", "score")).path.endswith("base.yaml")


def test_replace_swaps_an_entry(tmp_path):
    path = _variant(tmp_path, "extends: base.yaml\nreplace:\n  procedures.take_one:\n    do: |\n      pass\n")
    doc = loader.load(path)
    assert doc.data["procedures"]["take_one"] == {"do": "pass\n"}
    assert doc.span(("procedures", "take_one", "do")).line == 4


def test_remove_a_list_item_by_name_shifts_positions(tmp_path):
    path = _variant(tmp_path, "extends: base.yaml\nremove:\n  - flow.phases.early\n")
    doc = loader.load(path)
    assert [ph["name"] for ph in doc.data["flow"]["phases"]] == ["late"]
    # the positions of the remaining item moved with it
    assert doc.span(("flow", "phases", 0, "name")).line == 34
    assert ("flow", "phases", 1) not in doc.where


def test_append_and_prepend_join_rule_text_with_positions_in_both_files(tmp_path):
    path = _variant(tmp_path, "extends: base.yaml\nappend:\n  procedures.take_one.do: |\n    say \"after\"\n"
                              "prepend:\n  actions.take.do: 'say \"before\"'\n")
    doc = loader.load(path)
    assert doc.data["procedures"]["take_one"]["do"] == \
        "let c = top(draw)\nmove c to me.pile\nme.score += c.points\nsay \"after\"\n"
    assert doc.data["actions"]["take"]["do"] == "say \"before\"\ntake_one()\nend turn\n"
    text = doc.text(("procedures", "take_one", "do"))
    base = str(tmp_path / "base.yaml")
    first = text.locate(0, 3)
    assert (first.path, first.line, first.col) == (base, 50, 7)
    last = text.locate(text.value.index("say"), text.value.index("say") + 3)
    assert (last.path, last.line, last.col) == (path, 4, 5)
    pre = doc.text(("actions", "take", "do")).locate(0, 3)
    assert (pre.path, pre.line, pre.col) == (path, 6, 21)


def test_a_variant_of_a_variant(tmp_path):
    _variant(tmp_path, "extends: base.yaml\nset:\n  options.goal.default: 3\n"
                       "append:\n  procedures.take_one.do: 'say \"one\"'\n", "v1.yaml")
    path = _variant(tmp_path, "extends: v1.yaml\nappend:\n  procedures.take_one.do: 'say \"two\"'\n", "v2.yaml")
    spec, diags = api.check_spec(path)
    assert spec is not None, diags
    assert spec.options["goal"].default == 3
    assert spec.procedures["take_one"].do.text.value.endswith('say "one"\nsay "two"\n')
    assert len(spec.doc.sources) == 3


def test_merge_does_not_touch_the_base_document(tmp_path):
    path = _variant(tmp_path, "extends: base.yaml\nremove: [options.goal]\n")
    base = loader.load_file(str(tmp_path / "base.yaml"))
    before = repr(base.data)
    merge(base, loader.load_file(path))
    assert repr(base.data) == before


def test_errors_are_all_collected(tmp_path):
    path = _variant(tmp_path, "extends: base.yaml\nset:\n  options.nope: 1\n  game.nope: 2\nremove: [zones.nope]\n")
    with pytest.raises(SpecError) as exc:
        loader.load(path)
    assert [d.code for d in exc.value.diagnostics] == ["E110", "E110", "E110"]
    assert all(d.span.path == path for d in exc.value.diagnostics)


def test_shipped_short_stun_is_stun_with_three_chips():
    short, _ = api.load_spec("games/stun-short.yaml")
    full, _ = api.load_spec("games/stun.yaml")
    assert short.options["win_chips"].default == 3
    assert full.options["win_chips"].default == 5
    assert list(short.procedures) == list(full.procedures)
    assert short.procedures["flip"].do.span.path == "games/stun.yaml"


def test_check_merged_prints_the_result_as_yaml():
    import yaml
    from click.testing import CliRunner

    from interpreter.cli.commands import cli
    r = CliRunner().invoke(cli, ["check", "--merged", "games/stun-short.yaml"])
    assert r.exit_code == 0, r.output
    head, _, body = r.output.partition("\n")
    assert head.startswith("games/stun-short.yaml: ok")
    data = yaml.safe_load(body)
    assert data["options"]["win_chips"]["default"] == 3
    assert "extends" not in data and "set" not in data
    assert "do: |" in body  # rule text stays readable


def test_the_expansion_merges_into_one_spec():
    from click.testing import CliRunner

    from interpreter.cli.commands import cli
    r = CliRunner().invoke(cli, ["check", "--merged", "games/first-in-flight-stunt-pack.yaml"])
    assert r.exit_code == 0, r.output
    assert "horse_race:" in r.output and "move me.won_stunts to flipped" in r.output
