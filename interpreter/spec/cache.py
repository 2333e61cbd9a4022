"""Where Rulewright keeps what it may forget: parsed rules, the grammar, check verdicts.

Owns the cache folder's location only. Standard library only: the entry
point (cli/launch.py) imports it before anything else is loaded.
"""
from __future__ import annotations

import os
import tempfile


def cache_folder() -> str:
    """Where Rulewright keeps what it may forget: parsed rules, the grammar, check verdicts."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    folder = os.path.join(base, "rulewright")
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError:
        folder = tempfile.gettempdir()
    return folder
