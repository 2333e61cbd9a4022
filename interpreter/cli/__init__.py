"""A face, the command line: the `rulewright` entry point with its fast path for repeated checks
(launch), the command group (commands) with its commands by family (specs, games, measure,
servers, tune; common: what they share), and terminal play (play).

May import every stage and `api`. Imports nothing here, so that `launch` can answer a kept
`check` verdict without loading the rest.
"""
