"""A face, the playtesting table in the browser (`rulewright serve`).

Owns a local web app (Starlette, served by uvicorn on 127.0.0.1): starting
games of the specs the server was started with, one table per game with
each seat's own view, undo/redo/save/load (a game is its seed and choices),
stepping through a logged game, and ambiguity-lab jobs with their reports.
The page is plain HTML/JS in static/ (package data, no build step).

Modules: narration (a seat's narration: the one function that redacts),
tables (a game at the table: settings, replay, each seat's JSON, what is
secret while people play), sealing (saves of games in play, encrypted with
the server's key), logs (a `--log` file stepped through), labjobs (lab runs
off the event loop), guards (what a request must be before it is read:
Host, Origin, JSON), app (routes, sessions, limits, work off the event
loop), server (binding, the sealing key's file, printing the address). May
import every stage, `api` and the other faces' helpers.
"""
