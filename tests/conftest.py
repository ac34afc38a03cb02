"""The test tree mirrors the package's layers; the shared helpers (lintkit, irtools, hostile) live here."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
