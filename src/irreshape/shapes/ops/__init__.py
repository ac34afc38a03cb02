"""One module per op family; each registers its ops' shape functions and value evaluators on import."""

import importlib
import pkgutil

for _m in pkgutil.iter_modules(__path__):
    importlib.import_module(f"{__name__}.{_m.name}")
