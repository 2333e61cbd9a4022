"""The README is a front page that tells the truth: its two commands are the ones `.ci/run` runs, its
spec is a shipped file that checks, what it says that spec prints is what `rulewright` prints, its
pictures and links exist, and what used to live in it lives on a docs page in the nav.
"""
from __future__ import annotations

import os
import re

import yaml
from click.testing import CliRunner

from interpreter.cli.commands import cli

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _read(path: str) -> str:
    with open(os.path.join(ROOT, path), encoding="utf-8") as fh:
        return fh.read()


README = _read("README.md")


def _blocks(lang: str) -> list[str]:
    return re.findall(rf"^```{lang}\n(.*?)^```", README, re.S | re.M)


def test_the_two_commands_are_the_ones_ci_runs():
    first, second = _blocks("bash")[:2]
    ci = _read(".ci/run").splitlines()
    assert first.strip() in ci, "the README's first command is not a line of .ci/run"
    assert second.strip().startswith(".venv/bin/python -m pytest") and second.strip() in ci
    assert "games/stun.yaml" in first and "simulate" in first  # installs, then the STUN simulation


def test_the_short_spec_is_the_shipped_file_and_prints_what_the_readme_says():
    (spec,) = _blocks("yaml")
    assert spec == _read("docs/examples/pig.yaml")
    console = _blocks("console")[0]
    runner = CliRunner()
    for command, shown in re.findall(r"^\$ rulewright (.*)\n((?:(?!\$ ).*\n)*)", console, re.M):
        r = runner.invoke(cli, command.split())
        assert r.exit_code == 0, (command, r.output)
        lines = r.output.splitlines()
        pos = 0
        for want in (ln for ln in shown.splitlines() if ln.strip() and ln.strip() != "..."):
            assert want in lines[pos:], f"`rulewright {command}` does not print {want!r} (in this order)"
            pos = lines.index(want, pos) + 1


def test_pictures_and_links_exist_and_docs_links_are_in_the_nav():
    nav = yaml.safe_load(_read("mkdocs.yml").replace("!!python", "#"))["nav"]

    def pages(node) -> set[str]:
        if isinstance(node, str):
            return {node}
        if isinstance(node, list):
            return set().union(*(pages(x) for x in node))
        if isinstance(node, dict):
            return set().union(*(pages(v) for v in node.values()))
        return set()
    in_nav = pages(nav)
    targets = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", README)
    assert any(t.endswith(".png") for t in targets)
    for t in targets:
        if "://" in t:
            continue
        assert os.path.exists(os.path.join(ROOT, t)), f"README links to {t}, which does not exist"
        if t.startswith("docs/") and t.endswith(".md"):
            assert t[len("docs/"):] in in_nav, f"README links to {t}, which is not in mkdocs.yml's nav"
    assert {"docs/img/table.png", "docs/img/lab-report.png"} <= set(targets)


# What the README held before it became a front page, and the docs page that holds it now.
MOVED = {
    "docs/games.md": ["OpenSpiel `maedn`, in lockstep", "No Thanks!, 3-7 players", "E471"],
    "docs/guides/cli.md": ["rulewright replay game.jsonl", "stalled in about 2.5% of random games", "`E6xx`/`W6xx`"],
    "docs/guides/lab.md": ["Bonferroni", "Waudby-Smith", "common random numbers", "random-play artefact"],
    "docs/writing-specs.md": ["place_points", "given.clear", "check --merged", "keys: [fight, auto]"],
    "docs/guides/audit.md": ["contradicts_text", "W520", "seat_events", "Identical cards make one option"],
    "docs/design.md": ["tests/test_layout.py", "constants table", "## Layout"],
    "docs/performance.md": ["stun-lean", "opcodes.py", "XDG_CACHE_HOME", "benchmarks/start.py"],
    "docs/guides/agents.md": ["`cautious`", "why N", "--resume FILE"],
    "docs/guides/api.md": ["pettingzoo.test.api_test", "ambiguity_lab", "state.clone()"],
    "docs/guides/table.md": ["hot-seat", "Playwright"],
    "docs/guides/limits.md": ["alias bomb", "E444", "RULEWRIGHT_FUZZ", "10,000 options"],
    "docs/guides/scale.md": ["--backend ray", "`draws`", "`no_winner`"],
    "docs/guides/editors.md": ["Neovim", "VS Code"],
}


def test_nothing_the_readme_held_is_lost():
    for page, phrases in MOVED.items():
        text = " ".join(_read(page).split())  # phrases may be wrapped across lines
        missing = [p for p in phrases if p not in text]
        assert not missing, f"{page} no longer says {missing}"


def test_the_readme_stays_a_front_page():
    assert len(README.splitlines()) <= 150
