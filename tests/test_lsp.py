"""The language server, driven over the real protocol: `rulewright lsp` as a subprocess, JSON-RPC on stdio.

A pygls client starts the server, opens documents (shipped specs, and broken
text that was never saved), and asks for diagnostics, completion, hover,
definition and symbols, as an editor would.
"""
from __future__ import annotations

import asyncio
import os
import sys

import pytest
from lsprotocol import types as L
from pygls.lsp.client import LanguageClient
from pygls.uris import from_fs_path

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STUN = os.path.join(ROOT, "games", "stun.yaml")
SHORT = os.path.join(ROOT, "games", "stun-short.yaml")


def _command() -> list[str]:
    exe = os.path.join(os.path.dirname(sys.executable), "rulewright")
    return [exe, "lsp"] if os.path.exists(exe) else [sys.executable, "-m", "interpreter.cli", "lsp"]


class Session:
    """One server process and the diagnostics it published, by document."""

    def __init__(self) -> None:
        self.client = LanguageClient("rulewright-tests", "1")
        self.diagnostics: dict[str, list[L.Diagnostic]] = {}
        self.arrived: dict[str, asyncio.Event] = {}
        self.version = 0

        @self.client.feature(L.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def publish(params: L.PublishDiagnosticsParams) -> None:
            self.diagnostics[params.uri] = params.diagnostics
            self._event(params.uri).set()

    def _event(self, uri: str) -> asyncio.Event:
        return self.arrived.setdefault(uri, asyncio.Event())

    async def __aenter__(self) -> "Session":
        cmd = _command()
        await self.client.start_io(cmd[0], *cmd[1:], cwd=ROOT)
        await self.client.initialize_async(L.InitializeParams(capabilities=L.ClientCapabilities(),
                                                              root_uri=from_fs_path(ROOT)))
        self.client.initialized(L.InitializedParams())
        return self

    async def __aexit__(self, *exc) -> None:
        await self.client.shutdown_async(None)
        self.client.exit(None)
        await asyncio.wait_for(self.client.stop(), 20)

    async def open(self, path: str, text: str | None = None) -> list[L.Diagnostic]:
        uri = from_fs_path(path)
        text = open(path, encoding="utf-8").read() if text is None else text
        self._event(uri).clear()
        self.client.text_document_did_open(L.DidOpenTextDocumentParams(
            L.TextDocumentItem(uri=uri, language_id="yaml", version=0, text=text)))
        await asyncio.wait_for(self._event(uri).wait(), 30)
        return list(self.diagnostics[uri])

    async def change(self, path: str, text: str) -> list[L.Diagnostic]:
        uri = from_fs_path(path)
        self.version += 1
        self._event(uri).clear()
        self.client.text_document_did_change(L.DidChangeTextDocumentParams(
            L.VersionedTextDocumentIdentifier(uri=uri, version=self.version),
            [L.TextDocumentContentChangeWholeDocument(text=text)]))
        await asyncio.wait_for(self._event(uri).wait(), 30)
        return list(self.diagnostics[uri])

    def doc(self, path: str) -> L.TextDocumentIdentifier:
        return L.TextDocumentIdentifier(uri=from_fs_path(path))


def run(coro):
    return asyncio.run(asyncio.wait_for(coro, 90))


def _pos(text: str, line_has: str, at: str, after: int = 0) -> L.Position:
    """The position of `at` (plus `after` characters) on the first line containing `line_has`."""
    for i, ln in enumerate(text.splitlines()):
        if line_has in ln:
            return L.Position(line=i, character=ln.index(at) + after)
    raise AssertionError(f"no line with {line_has!r}")


STUN_TEXT = open(STUN, encoding="utf-8").read()


def test_diagnostics_as_you_type_match_check(tmp_path):
    """A shipped spec is clean; an edit that misspells a function gets check's code, position and hint,
    although the file on disk never changed."""
    async def go():
        async with Session() as s:
            assert await s.open(STUN) == []
            broken = STUN_TEXT.replace("move me.pile to me.held", "move me.pile to me.helt", 1)
            diags = await s.change(STUN, broken)
            assert len(diags) == 1
            d = diags[0]
            assert d.code == "E402" and d.severity == L.DiagnosticSeverity.Error
            assert "unknown player variable or zone 'helt'" in d.message and "did you mean 'held'" in d.message
            want = _pos(broken, "move me.pile to me.helt", "helt")
            assert (d.range.start.line, d.range.start.character) == (want.line, want.character)
            assert d.range.end.character == want.character + 4
            # the same words and place as `rulewright check` on the same text saved to a file
            from interpreter.api import check_spec
            p = tmp_path / "stun.yaml"
            p.write_text(broken, encoding="utf-8")
            _, on_disk = check_spec(str(p))
            assert [(x.code, x.span.line - 1, x.span.col - 1) for x in on_disk] == \
                [(d.code, d.range.start.line, d.range.start.character)]
            assert await s.change(STUN, STUN_TEXT) == []
    run(go())


@pytest.mark.parametrize("name, text, code", [
    ("bad_yaml", "game:\n  name: [unclosed\n", "E101"),
    ("cut_off_rule", STUN_TEXT.replace("      move me.pile to me.held\n", "      move me.pile to\n", 1), "E300"),
    ("empty", "", "E102"),
    ("missing_base", "extends: no-such-base.yaml\n", "E100"),
], ids=["bad-yaml", "rule-cut-off", "empty", "missing-base"])
def test_broken_documents_get_diagnostics_not_a_crash(name, text, code):
    async def go():
        async with Session() as s:
            path = os.path.join(ROOT, "games", f"unsaved-{name}.yaml")  # never written to disk
            diags = await s.open(path, text)
            assert code in [d.code for d in diags], [(d.code, d.message) for d in diags]
            # the server still answers every feature on the broken text
            pos = L.Position(line=0, character=1)
            await s.client.text_document_completion_async(L.CompletionParams(s.doc(path), pos))
            await s.client.text_document_hover_async(L.HoverParams(s.doc(path), pos))
            await s.client.text_document_definition_async(L.DefinitionParams(s.doc(path), pos))
            await s.client.text_document_document_symbol_async(L.DocumentSymbolParams(s.doc(path)))
    run(go())


def test_completion_offers_the_names_valid_there():
    async def go():
        async with Session() as s:
            await s.open(STUN)
            t = STUN_TEXT

            async def labels(pos):
                r = await s.client.text_document_completion_async(L.CompletionParams(s.doc(STUN), pos))
                return [i.label for i in (r.items if isinstance(r, L.CompletionList) else r)]
            from interpreter.api import load_spec
            readings = list(load_spec(STUN)[0].ambiguities)  # every ambiguity of the spec, in its order
            assert {"first_flip", "stun_plus_eligibility", "lost_chips", "stun_minus_target", "win_timing"} <= set(readings)
            assert await labels(_pos(t, 'if reading.first_flip == "forced"', "first_flip")) == readings
            assert await labels(_pos(t, 'if reading.first_flip == "forced"', '"forced"', 1)) == ["forced", "optional"]
            player = await labels(_pos(t, "move me.pile to me.held", "pile"))
            assert {"pile", "held", "chips", "seat"} <= set(player) and "points" not in player  # `me` is a player
            options = await labels(_pos(t, "me.chips >= option.win_chips", "win_chips"))
            assert set(options) == {"win_chips", "advanced"}
            bare = await labels(_pos(t, "let eligible = count([p in others where p.chips >= me.chips])", "count"))
            assert {"eligible", "count", "sum", "draw", "supply", "me", "others", "stunned", "count_of"} <= set(bare)
            # in an example's `do:`, the labels of actions and options
            do = await labels(_pos(t, "do: [turn up a card", "turn up", 1))
            assert {"turn up a card", "stop and keep the cards"} <= set(do)
    run(go())


def test_hover_and_definition():
    async def go():
        async with Session() as s:
            await s.open(STUN)
            t = STUN_TEXT
            h = await s.client.text_document_hover_async(L.HoverParams(s.doc(STUN), _pos(t, "{sum(me.held", "sum", 1)))
            assert "sum(list[, PROP])" in h.contents.value and "Example:" in h.contents.value
            assert "If the player wants to stop" in h.contents.value  # the rulebook sentence of the rule
            h = await s.client.text_document_hover_async(
                L.HoverParams(s.doc(STUN), _pos(t, 'if reading.first_flip == "forced"', "first_flip", 2)))
            assert "ambiguity" in h.contents.value and "first_flip" in h.contents.value
            # go to definition: a procedure, an ambiguity, a zone, a variable
            for line_has, at, want in [("    do: flip()", "flip", "  flip:"),
                                       ('if reading.first_flip == "forced"', "first_flip", "  first_flip:"),
                                       ("count(draw) == 0 and count(discard) > 0", "discard", "  discard:"),
                                       ("me.chips >= option.win_chips", "chips", "    chips:")]:
                loc = await s.client.text_document_definition_async(L.DefinitionParams(s.doc(STUN), _pos(t, line_has, at)))
                assert loc is not None, line_has
                loc = loc[0] if isinstance(loc, list) else loc
                assert loc.uri == from_fs_path(STUN)
                assert t.splitlines()[loc.range.start.line].startswith(want), (line_has, loc)
            # into the base of a variant
            short = open(SHORT, encoding="utf-8").read()
            assert await s.open(SHORT) == []
            loc = await s.client.text_document_definition_async(
                L.DefinitionParams(s.doc(SHORT), _pos(short, "win_must_survive_the_turn:", "win_must")))
            loc = loc[0] if isinstance(loc, list) else loc
            assert loc.uri == from_fs_path(STUN)
            assert t.splitlines()[loc.range.start.line].strip() == "win_must_survive_the_turn:"
    run(go())


def test_document_symbols():
    async def go():
        async with Session() as s:
            await s.open(STUN)
            syms = await s.client.text_document_document_symbol_async(L.DocumentSymbolParams(s.doc(STUN)))
            top = {x.name: x for x in syms}
            assert {"game", "zones", "actions", "procedures", "ambiguities", "examples"} <= set(top)
            assert [c.name for c in top["actions"].children] == ["flip", "stop"]
            assert "first_flip" in [c.name for c in top["ambiguities"].children]
    run(go())
