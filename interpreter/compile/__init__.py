"""Stage 3, compiling: checked rule text to programs, as closures (compiler) or as Python source
generated from the checked tree, every name and literal in it from the compiler's own tables
(codegen). Spec text is never passed to eval or exec.

Owns programs, not games: the State they run on is the runtime's. May import `spec` and `lang`.

The code generator is told in parts: codegen (`PyGen`), expressions, statements, flow (programs
with decisions, the turn cycle), support (what generated code calls as it runs); program holds
`Program` and the kinds of decision.
"""
