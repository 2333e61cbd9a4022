"""`rulewright compare` (interpreter/compare.py and the CLI command)."""
import json

import pytest
from click.testing import CliRunner

from interpreter.cli.commands import cli
from interpreter.lab.compare import CompareError, compare


def test_a_spec_compared_with_itself_is_identical():
    d = compare(["games/stun.yaml", "games/stun.yaml"], 3, 20, 4)
    a, b = d["specs"]
    for key in ("turns", "wins", "decisions_per_game", "finished"):
        assert a[key] == b[key]
    assert d["paired"] is True


def test_a_variant_changes_what_it_should():
    d = compare(["games/stun.yaml", "games/stun-short.yaml"], 3, 40, 1)
    rows = {r["label"]: r["values"] for r in d["rows"]}
    assert rows["turns (mean)"][1] < rows["turns (mean)"][0]
    assert len(rows["wins P3"]) == 2


def test_measures_of_either_spec_are_shown_side_by_side():
    d = compare(["games/first-in-flight.yaml", "games/first-in-flight-stunt-pack.yaml"], 3, 5, 1)
    rows = {r["label"]: r["values"] for r in d["rows"]}
    assert rows["Stunts attempted"][0] is None and rows["Stunts attempted"][1] >= 0
    assert rows["flights"][0] > 0 and rows["flights"][1] > 0


def test_options_apply_to_the_specs_that_declare_them():
    d = compare(["games/stun.yaml", "games/first-in-flight.yaml"], 3, 2, 1, options={"win_chips": "3"})
    assert d["specs"][0]["options"]["win_chips"] == 3
    assert "win_chips" not in d["specs"][1]["options"]


@pytest.mark.parametrize("kw, message", [
    ({"options": {"nope": "1"}}, "no spec declares the option 'nope'"),
    ({"readings": {"nope": "x"}}, "no spec declares the ambiguity 'nope'"),
], ids=["option", "reading"])
def test_unknown_settings_are_refused(kw, message):
    with pytest.raises(CompareError, match=message):
        compare(["games/stun.yaml", "games/stun-short.yaml"], 3, 2, 1, **kw)


def test_player_counts_must_suit_every_spec():
    with pytest.raises(CompareError, match="3 to 4 players"):
        compare(["games/stun.yaml", "games/first-in-flight.yaml"], 2, 2, 1)


def test_cli_table_and_json():
    r = CliRunner().invoke(cli, ["compare", "games/stun.yaml", "games/stun-short.yaml", "-p", "3", "--games", "10",
                                 "--seed", "1"])
    assert r.exit_code == 0, r.output
    assert "B - A" in r.output and "turns (mean)" in r.output and "A = games/stun.yaml" in r.output
    r = CliRunner().invoke(cli, ["compare", "games/stun.yaml", "games/stun-short.yaml", "-p", "3", "--games", "10",
                                 "--json"])
    assert r.exit_code == 0
    d = json.loads(r.output)
    assert [c["spec"] for c in d["specs"]] == ["games/stun.yaml", "games/stun-short.yaml"]


def test_cli_usage_errors():
    r = CliRunner().invoke(cli, ["compare", "games/stun.yaml", "-p", "3"])
    assert r.exit_code == 2 and "two or more specs" in r.output
    r = CliRunner().invoke(cli, ["compare", "games/stun.yaml", "games/stun-short.yaml", "-p", "3", "-o", "zzz=1"])
    assert r.exit_code == 2 and "no spec declares the option 'zzz'" in r.output


def test_compare_verdicts_and_per_column_settings():
    from interpreter.lab.compare import compare as do_compare
    d = do_compare(["tests/specs/race.yaml", "tests/specs/race.yaml", "tests/specs/race.yaml::target=8"], 2, 200, 4)
    same, longer = d["specs"][1], d["specs"][2]
    assert same["verdict"] == "immaterial"
    assert all(x["mean"] == 0 for x in same["differences"])
    assert longer["verdict"] == "material" and longer["settings"] == {"target": "8"}
    turns = next(x for x in longer["differences"] if x["measure"] == "turns")
    assert turns["lo"] > 0


def test_compare_rejects_an_unknown_column_setting():
    from interpreter.lab.compare import CompareError, compare as do_compare
    with pytest.raises(CompareError, match="no option or ambiguity 'nope'"):
        do_compare(["tests/specs/race.yaml", "tests/specs/race.yaml::nope=1"], 2, 10, 1)
