"""Stage 3a, lowering: the checked tree of a whole spec, once, into a typed intermediate form (`ir`).

Every reference the checker resolved becomes a typed node: variables are slots, zones are numbers,
texts are interned numbers, options and ambiguity readings are run-time parameters (so one lowered
game serves every variant), card properties are tables, and the flow (setup, phases, turns, the
action decision, the end of the game) is explicit data. Both backends read this form: the Python
engine's code generator (`interpreter/compile/`) and the kernel (`interpreter/kernel/`), which
names, with its position, what it does not run. Lowering is total over every checked spec.

May import `spec` and `lang`; nothing below it imports it back.
"""
