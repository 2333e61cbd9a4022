"""The language server on stdio (pygls): the protocol around features.py.

Owns: the LSP wiring. Every open document is checked from the text the
editor holds (runtime/pipeline.analyse with the document's path, so a
variant's bases still come from disk, under spec/files.py's rules, with the
editor's workspace folders as projects) when it is opened or saved, and
DEBOUNCE seconds after the last of a burst of changes; its diagnostics are
published with the codes, positions and hints of `rulewright check`. Completion, hover, definition and document
symbols answer from the latest check. Positions are converted between the
Span's 1-based characters and the protocol's 0-based UTF-16 units.

Whatever an editor sends, the server answers (a broken document gets its
diagnostics; an unexpected failure in a feature is logged and answered
with nothing; a message that cannot be read is answered by transport.py),
and it never writes to stdout outside the protocol.
"""
from __future__ import annotations

import asyncio
import logging
import os
import sys
import threading
import time
from typing import BinaryIO

from lsprotocol import types as L
from pygls.io_ import StdoutWriter
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from ..runtime.pipeline import analyse
from ..spec import files
from ..spec.diagnostics import Diagnostic, Severity, SourceCache, Span
from . import features as F, transport

log = logging.getLogger("rulewright.lsp")
DEBOUNCE = 0.25  # seconds of quiet after a change before the document is checked again

_ITEM_KIND = {"local": L.CompletionItemKind.Variable, "parameter": L.CompletionItemKind.Variable,
              "global variable": L.CompletionItemKind.Variable, "player variable": L.CompletionItemKind.Field,
              "turn variable": L.CompletionItemKind.Field, "zone": L.CompletionItemKind.Module,
              "player zone": L.CompletionItemKind.Field, "card property": L.CompletionItemKind.Property,
              "procedure": L.CompletionItemKind.Method, "function": L.CompletionItemKind.Function,
              "builtin": L.CompletionItemKind.Function, "action": L.CompletionItemKind.Event,
              "option": L.CompletionItemKind.Enum, "ambiguity": L.CompletionItemKind.Enum,
              "value": L.CompletionItemKind.EnumMember, "label": L.CompletionItemKind.Text,
              "keyword": L.CompletionItemKind.Keyword, "special": L.CompletionItemKind.Constant,
              "namespace": L.CompletionItemKind.Module, "card type": L.CompletionItemKind.Class,
              "board": L.CompletionItemKind.Struct}
_SYMBOL_KIND = {"section": L.SymbolKind.Namespace, "zone": L.SymbolKind.Array, "action": L.SymbolKind.Event,
                "procedure": L.SymbolKind.Method, "function": L.SymbolKind.Function, "trigger": L.SymbolKind.Event,
                "option": L.SymbolKind.Enum, "ambiguity": L.SymbolKind.EnumMember, "example": L.SymbolKind.Object,
                "scope": L.SymbolKind.Namespace, "card type": L.SymbolKind.Class, "phase": L.SymbolKind.Module,
                "board": L.SymbolKind.Struct}


class RulewrightServer(LanguageServer):
    def __init__(self) -> None:
        from importlib.metadata import PackageNotFoundError, version
        try:
            v = version("rulewright")
        except PackageNotFoundError:
            v = "0"
        super().__init__("rulewright", v, text_document_sync_kind=L.TextDocumentSyncKind.Full)
        self.docs: dict[str, F.Workspace] = {}
        self.last_check_seconds = 0.0
        self.checks = 0  # checks run (a test counts them: many quick edits, one check)
        self._pending: dict[str, asyncio.TimerHandle] = {}
        self.roots: tuple[str, ...] = ()  # the editor's workspace folders: a spec there may extend any spec there

    def check_soon(self, uri: str) -> None:
        """Check `uri` once the editor has been quiet for DEBOUNCE seconds (each change restarts the wait).

        Typing sends a change per key; checking each would queue checks behind each other and answer a
        hover many seconds late. Without a running event loop (a test calling in directly), check now."""
        old = self._pending.pop(uri, None)
        if old is not None:
            old.cancel()
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            self._check_current(uri)
            return
        self._pending[uri] = loop.call_later(DEBOUNCE, self._check_current, uri)

    def _check_current(self, uri: str) -> None:
        self._pending.pop(uri, None)
        try:
            doc = self.workspace.get_text_document(uri)
        except Exception:
            return
        if uri in self.docs:  # not closed in the meantime
            self.check(uri, doc.source)

    def cancel(self, uri: str) -> None:
        old = self._pending.pop(uri, None)
        if old is not None:
            old.cancel()

    def workspace_of(self, uri: str) -> F.Workspace:
        ws = self.docs.get(uri)
        if ws is None:
            ws = self.docs[uri] = F.Workspace(os.path.normpath(to_fs_path(uri) or uri))
        return ws

    def check(self, uri: str, text: str) -> None:
        ws = self.workspace_of(uri)
        t0 = time.perf_counter()
        self.checks += 1
        try:
            a = analyse(ws.path, text, allow=files.allowed_folders(os.path.dirname(os.path.abspath(ws.path)),
                                                                    *self.roots))
        except Exception as exc:  # the pipeline promises diagnostics, not exceptions: this is the net under it
            log.exception("check failed")
            from ..runtime.pipeline import Analysis
            a = Analysis([Diagnostic("E000", f"internal error while checking: {type(exc).__name__}: {exc}",
                                     Span(ws.path, 1, 1, 1, 2))])
        self.last_check_seconds = time.perf_counter() - t0
        ws.update(text, a)
        lines = text.splitlines()
        self.text_document_publish_diagnostics(L.PublishDiagnosticsParams(
            uri=uri, diagnostics=[_diagnostic(d, lines) for d in F.diagnostics(ws)]))


def _utf16(line: str, col: int) -> int:
    """0-based UTF-16 offset of 1-based character column `col` of `line`."""
    return len(line[:max(0, col - 1)].encode("utf-16-le")) // 2


def _chars(line: str, units: int) -> int:
    """1-based character column of 0-based UTF-16 offset `units` of `line`."""
    n = 0
    for i, ch in enumerate(line):
        if n >= units:
            return i + 1
        n += 2 if ord(ch) > 0xFFFF else 1
    return len(line) + 1


def _line(lines: list[str], k: int) -> str:
    return lines[k - 1] if 0 < k <= len(lines) else ""


def _range(s: Span, lines: list[str]) -> L.Range:
    return L.Range(start=L.Position(line=s.line - 1, character=_utf16(_line(lines, s.line), s.col)),
                   end=L.Position(line=s.end_line - 1, character=_utf16(_line(lines, s.end_line), s.end_col)))


def _diagnostic(d: Diagnostic, lines: list[str]) -> L.Diagnostic:
    sev = L.DiagnosticSeverity.Error if d.severity is Severity.ERROR else L.DiagnosticSeverity.Warning
    return L.Diagnostic(range=_range(d.span, lines), message=F.message(d), severity=sev, code=d.code,
                        source="rulewright")


def _lines_of(server: RulewrightServer, path: str, sources: SourceCache) -> list[str]:
    for ws in server.docs.values():
        if ws.path == path:
            return ws.text.splitlines()
    text = []
    k = 1
    while (ln := sources.line(path, k)) is not None:
        text.append(ln)
        k += 1
    return text


def _cursor(ws: F.Workspace, pos: L.Position) -> tuple[int, int]:
    lines = ws.text.splitlines()
    return pos.line + 1, _chars(_line(lines, pos.line + 1), pos.character)


server = RulewrightServer()


@server.feature(L.INITIALIZED)
def initialized(ls: RulewrightServer, params: L.InitializedParams) -> None:
    """Remember the editor's workspace folders (a spec in one may `extends:` any spec in it)."""
    roots: list[str] = []
    try:
        ws = ls.workspace
        roots += [to_fs_path(f.uri) or "" for f in ws.folders.values()]
        roots.append(ws.root_path or "")
    except Exception:  # no workspace: only each document's own folder
        log.exception("cannot read the workspace folders")
    ls.roots = tuple(r for r in roots if r)


@server.feature(L.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: RulewrightServer, params: L.DidOpenTextDocumentParams) -> None:
    ls.cancel(params.text_document.uri)
    ls.check(params.text_document.uri, params.text_document.text)


@server.feature(L.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: RulewrightServer, params: L.DidChangeTextDocumentParams) -> None:
    ls.workspace_of(params.text_document.uri)
    ls.check_soon(params.text_document.uri)


@server.feature(L.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: RulewrightServer, params: L.DidSaveTextDocumentParams) -> None:
    uri = params.text_document.uri
    ls.cancel(uri)
    ls.workspace_of(uri)
    ls._check_current(uri)


@server.feature(L.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: RulewrightServer, params: L.DidCloseTextDocumentParams) -> None:
    ls.cancel(params.text_document.uri)
    ls.docs.pop(params.text_document.uri, None)
    ls.text_document_publish_diagnostics(L.PublishDiagnosticsParams(uri=params.text_document.uri, diagnostics=[]))


@server.feature(L.TEXT_DOCUMENT_COMPLETION, L.CompletionOptions(trigger_characters=[".", "\"", "'"]))
def completion(ls: RulewrightServer, params: L.CompletionParams) -> L.CompletionList:
    ws = ls.docs.get(params.text_document.uri)
    items: list[L.CompletionItem] = []
    if ws is not None:
        try:
            line, col = _cursor(ws, params.position)
            for it in F.complete(ws, line, col):
                items.append(L.CompletionItem(label=it.label, kind=_ITEM_KIND.get(it.kind, L.CompletionItemKind.Text),
                                              detail=f"{it.kind}: {it.detail}" if it.detail else it.kind,
                                              insert_text=it.insert))
        except Exception:
            log.exception("completion failed")
    return L.CompletionList(is_incomplete=False, items=items)


@server.feature(L.TEXT_DOCUMENT_HOVER)
def hover(ls: RulewrightServer, params: L.HoverParams) -> L.Hover | None:
    ws = ls.docs.get(params.text_document.uri)
    if ws is None:
        return None
    try:
        text = F.hover(ws, *_cursor(ws, params.position))
    except Exception:
        log.exception("hover failed")
        return None
    if text is None:
        return None
    return L.Hover(contents=L.MarkupContent(kind=L.MarkupKind.Markdown, value=text))


@server.feature(L.TEXT_DOCUMENT_DEFINITION)
def definition(ls: RulewrightServer, params: L.DefinitionParams) -> L.Location | None:
    ws = ls.docs.get(params.text_document.uri)
    if ws is None:
        return None
    try:
        span = F.definition(ws, *_cursor(ws, params.position))
        if span is None:
            return None
        path = os.path.abspath(span.path)
        return L.Location(uri=from_fs_path(path) or path, range=_range(span, _lines_of(ls, span.path, SourceCache())))
    except Exception:
        log.exception("definition failed")
        return None


@server.feature(L.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
def document_symbol(ls: RulewrightServer, params: L.DocumentSymbolParams) -> list[L.DocumentSymbol]:
    ws = ls.docs.get(params.text_document.uri)
    if ws is None:
        return []
    lines = ws.text.splitlines()

    def conv(s: F.Symbol) -> L.DocumentSymbol:
        return L.DocumentSymbol(name=s.name, kind=_SYMBOL_KIND.get(s.kind, L.SymbolKind.Variable), detail=s.kind,
                                range=_range(s.span, lines), selection_range=_range(s.key, lines),
                                children=[conv(c) for c in s.children])
    try:
        return [conv(s) for s in F.symbols(ws)]
    except Exception:
        log.exception("symbols failed")
        return []


def serve(stdin: BinaryIO | None = None, stdout: BinaryIO | None = None) -> None:
    """Speak LSP on stdin/stdout until the editor says exit.

    pygls' protocol handles the messages; transport.py reads them (bounded, and answering what
    pygls' own reader would drop or choke on)."""
    logging.basicConfig(level=logging.WARNING, format="rulewright lsp: %(message)s")  # on stderr
    stdin = stdin or sys.stdin.buffer
    server._stop_event = threading.Event()  # what pygls' start_io sets up; its shutdown() sets the event
    server.protocol.set_writer(StdoutWriter(stdout or sys.stdout.buffer))
    read1 = getattr(stdin, "read1", stdin.read)

    def oversized(n: int) -> None:
        server.window_show_message(L.ShowMessageParams(
            type=L.MessageType.Warning,
            message=f"rulewright: a message of {n:,} bytes was ignored (the limit is {transport.MAX_MESSAGE:,})"))
    try:
        asyncio.run(transport.run(server._stop_event, read1, server.protocol, server.thread_pool, oversized))
    except BrokenPipeError:
        log.error("the editor closed the connection")
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        server.shutdown()
