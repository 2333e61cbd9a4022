"""Reading the files a user pointed at, and nothing else.

Owns the one way Rulewright reads a file it was told to read, whoever named it
(a command line, an `extends:`, a log's or a save's `spec`, an editor, the
browser table): `read_bytes`, `read_text` and `digest`. Each

- reads **regular files only**: a FIFO, a device, a folder, a socket or a file of
  /proc or /sys is refused before a byte is read (they can block for ever, never
  end, or hold the machine's secrets), and the file is opened without blocking so
  a FIFO that appears between the check and the open cannot stall the reader;
- reads **in bounded chunks up to a limit** (2,000,000 bytes for a spec), and
  refuses a file that is larger, or that grows past the limit while it is read;
- raises `Refused` (an OSError, so every `except OSError` already handles it)
  whose words name the path and the reason, never a byte of the file's content.

`inside`, `project_folder` and `allowed_folders` decide where a file *named by
another file* may be: a base named by `extends:`, the rulebook text a spec names
(`game.rulebook.source`), or the spec named in a log or a save, must lie (after
symbolic links are followed) inside the folder of the file that names it or its
project (the nearest folder above it that holds `.git`, `.hg` or `pyproject.toml`),
or in a folder of the allow-list, the `RULEWRIGHT_ALLOW` environment variable
(folders separated by `os.pathsep`). Such a name must also end in `.yaml` or
`.yml` (a spec), or `.txt` or `.md` (a rulebook).

Standard library only: the quick `check` path (cli/launch.py) imports it before
anything else is loaded. It does not parse anything (loader.py does).
"""
from __future__ import annotations

import errno
import hashlib
import os
import stat
from collections.abc import Iterable

MAX_SPEC_BYTES = 2_000_000  # a spec, or a base it extends
MAX_LOG_BYTES = 64_000_000  # a game log (the longest shipped golden log is 180 kB)
MAX_SAVE_BYTES = 4_000_000  # a saved game: its settings and its choices
MAX_RULEBOOK_BYTES = 4_000_000  # a rulebook's text (`game.rulebook.source`)
CHUNK = 1 << 16
ALLOW_ENV = "RULEWRIGHT_ALLOW"
SPEC_SUFFIXES = (".yaml", ".yml")
RULEBOOK_SUFFIXES = (".txt", ".md")
PROJECT_MARKERS = (".git", ".hg", "pyproject.toml")
_PSEUDO = ("/proc", "/sys", "/dev")  # kernel files: no real size, endless, or someone's secrets


class Refused(OSError):
    """A file that was not read (or not wholly): `strerror` says why without quoting the file.

    `too_large` tells a file over the limit from one that is not an ordinary file at all."""

    def __init__(self, path: str, reason: str, too_large: bool = False):
        super().__init__(errno.EPERM if not too_large else errno.EFBIG, reason, path)
        self.too_large = too_large


def _under(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _refuse_special(path: str, mode: int) -> None:
    if not stat.S_ISREG(mode):
        raise Refused(path, f"{_kind(mode)}, not a regular file: only regular files are read")
    real = os.path.realpath(path)
    if any(_under(real, p) for p in _PSEUDO):
        top = os.sep + real.split(os.sep)[1]
        raise Refused(path, f"a file of {top} (the system's), not a regular file: only regular files are read")


def read_bytes(path: str, limit: int = MAX_SPEC_BYTES, what: str = "spec") -> bytes:
    """The whole content of the regular file at `path`, if it is at most `limit` bytes; else Refused.

    OSError (no such file, permission) passes through as raised by the system."""
    _refuse_special(path, os.stat(path).st_mode)  # before opening: opening a device can itself do something
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(path, flags)
    try:
        st = os.fstat(fd)
        _refuse_special(path, st.st_mode)  # it may have been swapped since the stat above
        if st.st_size > limit:
            raise Refused(path, f"the {what} is {st.st_size:,} bytes; the limit is {limit:,}", too_large=True)
        chunks: list[bytes] = []
        got = 0
        while got <= limit:
            chunk = os.read(fd, min(CHUNK, limit + 1 - got))
            if not chunk:
                break
            chunks.append(chunk)
            got += len(chunk)
        if got > limit:
            raise Refused(path, f"the {what} is more than {limit:,} bytes; the limit is {limit:,}", too_large=True)
        return b"".join(chunks)
    finally:
        os.close(fd)


def read_text(path: str, limit: int = MAX_SPEC_BYTES, what: str = "spec") -> str:
    """`read_bytes` decoded as UTF-8; a file that is not UTF-8 is Refused (its bytes are not shown)."""
    raw = read_bytes(path, limit, what)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise Refused(path, f"the {what} is not UTF-8 text (line {line})") from None


def digest(path: str, limit: int = MAX_SPEC_BYTES, what: str = "spec") -> str:
    """SHA-256 (hex) of the file at `path`, read as `read_bytes` reads it."""
    return hashlib.sha256(read_bytes(path, limit, what)).hexdigest()


def project_folder(folder: str) -> str | None:
    """The nearest folder at or above `folder` that holds .git, .hg or pyproject.toml (its links resolved)."""
    at = os.path.realpath(folder)
    while True:
        if any(os.path.exists(os.path.join(at, m)) for m in PROJECT_MARKERS):
            return at
        up = os.path.dirname(at)
        if up == at:
            return None
        at = up


def allowed_folders(*folders: str) -> tuple[str, ...]:
    """These folders, the project each lies in, and the allow-list (RULEWRIGHT_ALLOW), links resolved."""
    extra = [f for f in os.environ.get(ALLOW_ENV, "").split(os.pathsep) if f.strip()]
    projects = [p for p in map(project_folder, folders) if p is not None]
    out: list[str] = []
    for f in (*folders, *projects, *extra):
        real = os.path.realpath(os.path.expanduser(f))
        if real not in out:
            out.append(real)
    return tuple(out)


def inside(path: str, folders: Iterable[str]) -> bool:
    """Whether `path`, its links followed, lies in one of `folders` (as `allowed_folders` gives them)."""
    real = os.path.realpath(path)
    return any(_under(real, f) for f in folders)


def named_file_problem(path: str, folders: Iterable[str], suffixes: tuple[str, ...] = SPEC_SUFFIXES) -> str | None:
    """Why a file that another file names (an `extends:` base, a log's or a save's `spec`, a rulebook) may
    not be read, or None. Decided from the name alone, before the file is opened or even looked at."""
    if not path.lower().endswith(suffixes):
        if suffixes == SPEC_SUFFIXES:
            return "a spec is a .yaml (or .yml) file"
        return "it is not a " + " or ".join(suffixes) + " file"
    folders = tuple(folders)
    if not inside(path, folders):
        shown = " or ".join(folders[:3]) + (" ..." if len(folders) > 3 else "")
        return f"it is outside {shown}; a file may name only files in its own folder or project (see {ALLOW_ENV})"
    return None


__all__ = ["ALLOW_ENV", "MAX_LOG_BYTES", "MAX_RULEBOOK_BYTES", "MAX_SAVE_BYTES", "MAX_SPEC_BYTES", "RULEBOOK_SUFFIXES",
           "Refused", "allowed_folders", "digest", "inside", "named_file_problem", "project_folder", "read_bytes",
           "read_text"]
