"""Stage 3, compiling: checked rule text to programs as Python source generated from the lowered
form (`interpreter/lower/`, which the kernel reads too), every name and literal in it from that
form and the compiler's own tables (compiler: what drives compiling). Names are resolved once, in
lowering; the generator only decides how the Python engine runs each node. Spec text is never
passed to eval or exec.

Owns programs, not games: the State they run on is the runtime's. May import `spec`, `lang` and
`lower`.

The code generator is told in parts: codegen (`PyGen`), expressions, statements, flow (programs
with decisions, the turn cycle), support (what generated code calls as it runs); program holds
`Program` and the kinds of decision.
"""
