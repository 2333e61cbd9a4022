"""Stage 3, compiling: checked rule text to programs as Python source generated from the checked
tree (codegen), every name and literal in it from the compiler's own tables (compiler: what
drives compiling). Each construct means what the generator writes for it, and nothing else here
implements it a second time. Spec text is never passed to eval or exec.

Owns programs, not games: the State they run on is the runtime's. May import `spec` and `lang`.

The code generator is told in parts: codegen (`PyGen`), expressions, statements, flow (programs
with decisions, the turn cycle), support (what generated code calls as it runs); program holds
`Program` and the kinds of decision.
"""
