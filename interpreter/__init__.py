"""Rulewright: tabletop game rules as code.

The package is the pipeline of DESIGN.md, one subpackage per stage, and
imports run downward only (tests/test_layout.py keeps it so):

    spec      YAML loading, positions, diagnostics, the JSON Schema check, variants
    lang      the rules language: grammar access, AST nodes, kinds, builtins, the checker, the checked model, limits
    lower     the checked spec -> one typed intermediate form (slots, tables, flow; options and readings as parameters)
    compile   checked rule text -> generated Python (one meaning per construct)
    runtime   the engine (Game, State), seeds, the load pipeline, game logs, examples (scenarios)
    agents    who makes each decision: random, scripted, greedy, MCTS, determinization, heuristics
    kernel    the intermediate form -> a numba kernel: whole unlogged games natively, replayed in the engine to check
              (greedy seats too: kernel/agents.py runs the agents' search on it)
    lab       many games: the runner and its statistics, measures, the ambiguity lab, compare, lint, explain, reports
    api       the stable front door for scripts and notebooks
    faces     cli/ (the command line, terminal play, narration), pettingzoo_env (the RL environment),
              web/ (the playtesting table in the browser)

A module may import from its own stage and from the stages above it in this
list, never from one below it. This file imports nothing, so loading one stage
does not load the others.
"""
