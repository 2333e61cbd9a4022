"""Stage 5, who makes each decision: the `Agent` protocol, the registry of agents by name and the
simple agents (registry), greedy and MCTS search (search), re-dealing what a seat cannot see
(determinize), and position values from the spec's scoring (heuristics).

Agents read a State and pick an option; they never change it. May import `spec`, `lang`,
`compile` and `runtime`.
"""
