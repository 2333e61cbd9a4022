"""A face, the language server: `rulewright lsp`, on stdio, for any editor.

`names` (what a spec declares and where: the index behind completion, hover
and go-to-definition), `features` (the editor features as plain functions of
a checked text and a cursor position), `server` (the pygls wiring: the LSP
protocol, documents held in memory, diagnostics as you type, debounced),
`transport` (reading the base protocol's frames from stdin: bounded, and
answering every message that cannot be read).

May import every stage and `api`; checks unsaved text through the same
pipeline as `rulewright check` (runtime/pipeline.analyse), never a copy.
"""
