"""How fast the language server re-checks a document as you type.

For every shipped spec: start `rulewright lsp` (one process, as an editor
does), open the spec, then send edits (a comment appended and removed, so
every check is a real one of a changed text) and time each from the
`didChange` sent to its diagnostics received over the protocol. Beside it,
the same check in-process (`pipeline.analyse` on the text), which is what
the server spends inside. Target: well under a second per re-check.

    python benchmarks/lsp.py [--edits 20] [--json]
"""
from __future__ import annotations

import argparse
import asyncio
import glob
import json
import os
import statistics
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from lsprotocol import types as L  # noqa: E402
from pygls.lsp.client import LanguageClient  # noqa: E402
from pygls.uris import from_fs_path  # noqa: E402

from interpreter.runtime.pipeline import analyse  # noqa: E402


async def _over_protocol(specs: list[str], edits: int) -> dict[str, list[float]]:
    client = LanguageClient("bench", "1")
    arrived: dict[str, asyncio.Event] = {}

    @client.feature(L.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def publish(params: L.PublishDiagnosticsParams) -> None:
        arrived.setdefault(params.uri, asyncio.Event()).set()

    exe = os.path.join(os.path.dirname(sys.executable), "rulewright")
    cmd = [exe, "lsp"] if os.path.exists(exe) else [sys.executable, "-m", "interpreter.cli", "lsp"]
    await client.start_io(cmd[0], *cmd[1:], cwd=ROOT)
    await client.initialize_async(L.InitializeParams(capabilities=L.ClientCapabilities()))
    client.initialized(L.InitializedParams())
    out: dict[str, list[float]] = {}
    for path in specs:
        uri = from_fs_path(os.path.abspath(path))
        text = open(path, encoding="utf-8").read()
        ev = arrived.setdefault(uri, asyncio.Event())
        ev.clear()
        client.text_document_did_open(L.DidOpenTextDocumentParams(L.TextDocumentItem(uri=uri, language_id="yaml", version=0, text=text)))
        await ev.wait()
        times = []
        for k in range(edits):
            edited = text + (f"\n# edit {k}\n" if k % 2 == 0 else "")
            ev.clear()
            t0 = time.perf_counter()
            client.text_document_did_change(L.DidChangeTextDocumentParams(
                L.VersionedTextDocumentIdentifier(version=k + 1, uri=uri), [L.TextDocumentContentChangeWholeDocument(text=edited)]))
            await ev.wait()
            times.append(time.perf_counter() - t0)
        out[path] = times
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return out


def _in_process(path: str, edits: int) -> list[float]:
    text = open(path, encoding="utf-8").read()
    path = os.path.abspath(path)
    analyse(path, text)  # grammar built, caches warm: as in a running server
    times = []
    for k in range(edits):
        t0 = time.perf_counter()
        analyse(path, text + f"\n# edit {k}\n")
        times.append(time.perf_counter() - t0)
    return times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--edits", type=int, default=20)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    os.chdir(ROOT)
    specs = sorted(glob.glob("games/*.yaml"))
    proto = asyncio.run(_over_protocol(specs, a.edits))
    rows = []
    for p in specs:
        inproc = _in_process(p, a.edits)
        t = proto[p]
        rows.append({"spec": p, "edits": a.edits,
                     "protocol_ms": {"median": round(1000 * statistics.median(t), 1), "max": round(1000 * max(t), 1)},
                     "analyse_ms": {"median": round(1000 * statistics.median(inproc), 1),
                                    "max": round(1000 * max(inproc), 1)}})
    if a.json:
        print(json.dumps(rows))
        return
    print(f"{'spec':42} {'re-check over LSP (median / max ms)':>38} {'in-process analyse (median / max ms)':>40}")
    for r in rows:
        print(f"{r['spec']:42} {r['protocol_ms']['median']:>26} / {r['protocol_ms']['max']:<9} "
              f"{r['analyse_ms']['median']:>27} / {r['analyse_ms']['max']}")


if __name__ == "__main__":
    main()
