"""Stage 4, running one game: the engine (`Game`, `State`, `decision()` / `apply()`, budgets and
stalls), per-game and per-agent seeds (seeds), the load pipeline from a file to a compiled Game
(pipeline), game logs and replay (gamelog), the spec's examples as scenarios (scenarios), chance
given from outside (chance: dice outcomes and deck orders) and the layouts of views and saves (records).

Chooses nothing itself: agents choose. May import `spec`, `lang` and `compile`.
"""
