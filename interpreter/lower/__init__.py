"""Stage 3a, lowering: the checked tree of a whole spec, once, into a typed intermediate form (`ir`).

Every reference the checker resolved becomes a typed node: variables are slots, zones are numbers,
texts are interned numbers, options and ambiguity readings are run-time parameters (so one lowered
game serves every variant), card properties are tables, and the flow (setup, phases, turns, the
action decision, the end of the game) is explicit data. The kernel backend (`interpreter/kernel/`)
reads only this form; a construct it does not cover is named here, with its position.

May import `spec` and `lang`; nothing below it imports it back.
"""
