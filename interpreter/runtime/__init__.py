"""Stage 4, running one game: the engine (`Game`, `State`, `decision()` / `apply()`, budgets and
stalls), per-game and per-agent seeds (seeds), the load pipeline from a file to a compiled Game
(pipeline), game logs and replay (gamelog), and the spec's examples as scenarios (scenarios).

Chooses nothing itself: agents choose. May import `spec`, `lang` and `compile`.
"""
