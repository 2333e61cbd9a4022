"""The snippet rule for docs/language and docs/cookbook: every ```yaml block is a complete spec that
passes `rulewright check` (and its examples pass), or starts with `# expect: E123` and fails with that code."""
from __future__ import annotations

import glob
import os
import re

import pytest

from spec_helpers import diagnostics, failed_examples
from interpreter.spec.diagnostics import Severity

PAGES = sorted(glob.glob("docs/language/*.md") + glob.glob("docs/cookbook/*.md"))
BLOCK = re.compile(r"^```yaml\n(.*?)^```", re.S | re.M)


def _blocks():
    for page in PAGES:
        with open(page, encoding="utf-8") as fh:
            for k, m in enumerate(BLOCK.finditer(fh.read())):
                yield pytest.param(page, m.group(1), id=f"{os.path.basename(page)}-{k + 1}")


@pytest.mark.parametrize("page, text", list(_blocks()))
def test_yaml_blocks_check(tmp_path, page, text):
    path = tmp_path / "snippet.yaml"
    path.write_text(text, encoding="utf-8")
    errs = [d.code for d in diagnostics(str(path)) if d.severity is Severity.ERROR]
    first = text.splitlines()[0]
    if first.startswith("# expect:"):
        assert first.split(":", 1)[1].strip() in errs, (page, errs)
    else:
        assert errs == [], (page, errs)
        assert failed_examples(str(path)) == {}, page


def test_the_pages_exist():
    assert len(PAGES) >= 5
