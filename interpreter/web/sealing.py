"""Sealed saves: a game in play saved so that no seat can read its seed or its choices.

A game is its seed and its choices, so a save that shows them shows every
hidden card, the deck's order and every sealed bid made so far. A save of a
game that people are still playing is therefore sealed: the open save (the
settings, the seed, the choices) is encrypted and authenticated with the
server's key (Fernet: AES-128-CBC and HMAC-SHA256, from the `cryptography`
package), and the file shows only what every seat already knows (the game,
the seats, the number of choices made). Loading a sealed save decrypts it;
a save changed by hand, or sealed by a server with another key, is refused.

Owns the key (`Sealer`: a fresh random key per process unless one is given;
`serve` keeps one in a file so that saves load after a restart:
`key_file()`), sealing and unsealing. Knows no HTTP and no game.
"""
from __future__ import annotations

import json
import os
import stat
from typing import Any

from cryptography.fernet import Fernet, InvalidToken

KEY_NAME = "table-save.key"


class SealError(ValueError):
    """A sealed save that this server cannot open."""


class Sealer:
    def __init__(self, key: bytes | None = None):
        self.fernet = Fernet(key or Fernet.generate_key())

    def seal(self, data: dict[str, Any]) -> str:
        return self.fernet.encrypt(json.dumps(data, sort_keys=True).encode("utf-8")).decode("ascii")

    def unseal(self, token: Any) -> dict[str, Any]:
        if not isinstance(token, str) or not token.isascii() or len(token) > 1_000_000:
            raise SealError("the save's \"sealed\" field is not a sealed game")
        try:
            data = json.loads(self.fernet.decrypt(token.encode("ascii")))
        except (InvalidToken, ValueError):
            raise SealError("this save was sealed by another table server (or changed since): it cannot be "
                            "opened here; a game is saved in the clear once it is over") from None
        if not isinstance(data, dict):
            raise SealError("the sealed game is not a saved table game")
        return data


def key_file() -> str:
    """Where `serve` keeps its key: $XDG_STATE_HOME/rulewright (else ~/.local/state/rulewright)."""
    root = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return os.path.join(root, "rulewright", KEY_NAME)


def persistent_key(path: str | None = None) -> tuple[bytes | None, str | None]:
    """The key kept at `path` (made, readable by its owner only, when missing), or (None, why not)."""
    path = path or key_file()
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | getattr(os, "O_NONBLOCK", 0))
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                return None, f"{path} is not a regular file"
            key = os.read(fd, 100).strip()
        finally:
            os.close(fd)
        Fernet(key)  # a valid key, or ValueError
        return key, None
    except FileNotFoundError:
        pass
    except (OSError, ValueError) as exc:
        return None, f"cannot use {path}: {exc}"
    key = Fernet.generate_key()
    try:
        os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as fh:
            fh.write(key + b"\n")
    except OSError as exc:
        return None, f"cannot write {path}: {exc}"
    return key, None
