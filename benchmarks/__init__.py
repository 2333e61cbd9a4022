"""Speed measurements and the hand-written baselines they compare the interpreter with."""
