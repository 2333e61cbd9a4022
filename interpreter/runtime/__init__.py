"""Stage 4, running one game: the engine (`Game`, `State`, `decision()` / `apply()`, budgets and
stalls), per-game and per-agent seeds (seeds), the load pipeline from a file to a compiled Game
(pipeline), game logs and replay (gamelog), the spec's examples as scenarios (scenarios), chance
given from outside (chance: dice outcomes and deck orders) and the layouts of views and saves (records).

Chooses nothing itself: agents choose. May import `spec`, `lang` and `compile`.

The engine is told in parts, one module each: engine (`Game`, and `State` composed of
decisions, turns, moves and telling), setup (where a game starts), status (`Status`, `Decision`,
`Result`, the errors); shapes gives chance and redact the engine's types without importing it;
narrate words a game's events for both faces.
"""
