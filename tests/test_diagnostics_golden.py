"""Golden diagnostics: each tests/bad_specs/*.yaml beside the exact `rulewright check` output on stderr.

Every bad spec is tests/bad_specs/_minimal.yaml (which must stay clean) with
one thing broken; the comment at its top says what. After an intended change
to the wording or the positions of diagnostics, regenerate with

    REGEN_GOLDEN=1 python -m pytest tests/test_diagnostics_golden.py

and review the diff of the `.expected` files like any other change.
"""
from __future__ import annotations

import glob
import os

import pytest
from click.testing import CliRunner

from interpreter.cli.commands import cli

from helpers import MINIMAL

BAD = sorted(p for p in glob.glob(os.path.join("tests", "bad_specs", "*.yaml"))
             if not os.path.basename(p).startswith("_"))
REGEN = os.environ.get("REGEN_GOLDEN") == "1"


def _check(path: str):
    result = CliRunner().invoke(cli, ["check", path])
    # CliRunner turns an uncaught exception into exit code 1 too: make sure it was a clean exit
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result


def _expected_path(spec: str) -> str:
    return spec[:-len(".yaml")] + ".expected"


@pytest.mark.parametrize("spec", BAD, ids=[os.path.basename(p)[:-5] for p in BAD])
def test_check_output_matches_golden(spec):
    result = _check(spec)
    golden = _expected_path(spec)
    if REGEN:
        with open(golden, "w", encoding="utf-8") as fh:
            fh.write(result.stderr)
    assert os.path.exists(golden), f"{golden} is missing: run with REGEN_GOLDEN=1 and review it"
    with open(golden, encoding="utf-8") as fh:
        expected = fh.read()
    assert result.exit_code == 1
    assert "Traceback" not in result.output and "Traceback" not in result.stderr
    assert result.stdout == ""
    got, want = result.stderr.splitlines(), expected.splitlines()
    for n, (a, b) in enumerate(zip(want, got), start=1):
        assert a == b, f"{golden}:{n}: first difference\n  golden: {a}\n  now:    {b}"
    assert len(got) == len(want), f"{golden}: {len(want)} lines expected, {len(got)} now"


@pytest.mark.parametrize("spec", BAD, ids=[os.path.basename(p)[:-5] for p in BAD])
def test_golden_output_is_well_formed(spec):
    """Every error names its file:line:col and code, and shows a source line and a caret."""
    with open(_expected_path(spec), encoding="utf-8") as fh:
        lines = fh.read().splitlines()
    heads = [i for i, ln in enumerate(lines) if ln.startswith(spec + ":") and "[" in ln]
    assert heads, "no diagnostic in the golden file"
    for i in heads:
        path, line, col, rest = lines[i].split(":", 3)
        assert path == spec and int(line) >= 1 and int(col) >= 1
        assert rest.startswith((" error[E", " warning[W"))
        assert lines[i + 2].startswith(f"{line} | ")
        caret_line = lines[i + 3]
        assert caret_line.lstrip().startswith("|") and "^" in caret_line
        # the caret stands under column `col` of the source line
        assert caret_line.index("^") - caret_line.index("|") - 2 == int(col) - 1
    assert lines[-1].startswith(f"{spec}: ") and "error(s)" in lines[-1]


def test_every_bad_spec_has_golden_output_and_no_golden_is_orphaned():
    expected = sorted(glob.glob(os.path.join("tests", "bad_specs", "*.expected")))
    assert [_expected_path(p) for p in BAD] == expected


def test_the_minimal_spec_the_bad_specs_come_from_is_clean():
    result = _check(MINIMAL)
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    assert result.stdout.strip() == f"{MINIMAL}: ok (Minimal, 0 warning(s))"


def test_one_bad_spec_among_good_ones_fails_the_check_and_reports_each():
    bad = os.path.join("tests", "bad_specs", "unknown_name.yaml")
    result = _check_many([MINIMAL, bad, "games/stun.yaml"])
    assert result.exit_code == 1
    assert f"{MINIMAL}: ok" in result.stdout and "games/stun.yaml: ok" in result.stdout
    assert f"{bad}: 1 error(s), 0 warning(s)" in result.stderr


def _check_many(paths):
    result = CliRunner().invoke(cli, ["check", *paths])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result
