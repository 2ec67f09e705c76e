"""Suite-wide setup: let Hypothesis report failures under `filterwarnings = error`."""
from __future__ import annotations

import warnings

with warnings.catch_warnings():
    # Hypothesis imports libcst (when installed) to write its failure patches; that import raises a
    # DeprecationWarning, which `filterwarnings = error` would turn into an INTERNALERROR hiding the
    # falsifying example. Importing it once here, quietly, avoids that.
    warnings.simplefilter("ignore", DeprecationWarning)
    try:
        import libcst  # noqa: F401
    except ImportError:
        pass
