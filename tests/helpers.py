"""Small spec files for tests: a variant of the tiny game in tests/variants/base.yaml."""
import os

BASE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "variants", "base.yaml")


def tiny_variant(tmp_path, text: str, name: str = "v.yaml") -> str:
    """Write `text` (a variant that says `extends: base.yaml`) beside a copy of the tiny base."""
    base = tmp_path / "base.yaml"
    if not base.exists():
        base.write_text(open(BASE, encoding="utf-8").read(), encoding="utf-8")
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return str(p)
