import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)
os.chdir(ROOT)  # specs and golden logs use paths relative to the project root

# The command line runs games on the kernel by default; most tests are about the rules and the faces, not
# the engine, and compiling a kernel for each of their small specs would cost seconds each. They run on
# the Python engine; tests/test_kernel.py asks for the kernel explicitly (and shares one cache per session).
os.environ.setdefault("RULEWRIGHT_ENGINE", "python")
