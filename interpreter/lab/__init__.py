"""Stage 6, many games and what they show: the runner with its sweeps and statistics (runner),
measures (measures), paired comparisons (paired), the ambiguity lab (ambiguities), spec and option
comparison (compare), rule-health findings (lint), traceability to the rulebook (trace, explain),
why an action is not offered (whynot), the HTML report (report), and the variant search against design
targets (`rulewright tune`: targets, tune_space, candidates, tune, tune_report).

Produces data and text; printing is the faces' job. May import every stage above it
(`spec` .. `agents`), never `api` or a face.
"""

from .policies import LastAgent  # noqa: E402,F401  (registers the lab's own policy, `last`, by name)
