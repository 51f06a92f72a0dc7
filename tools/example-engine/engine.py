#!/usr/bin/env python3
"""The example engine (the kit's seams_example_engine) on this checkout's
spec/, run with any python3 from anywhere:

    seams conform --engine "python3 tools/example-engine/engine.py"

The engine itself, the geometry, is tools/python/seams_example_engine.py.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

try:
    import seams_example_engine
except ImportError:
    # The one engine here meant to run with nothing installed: without the
    # kit in this Python, the checkout's copy of it is used.
    sys.path.insert(0, os.path.join(HERE, "..", "python"))
    import seams_example_engine

seams_example_engine.main(default_spec=os.path.join(HERE, "..", "..", "spec"))
