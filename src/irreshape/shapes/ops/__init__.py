"""One module per op family; each registers its ops' shape functions, type rules and value evaluators on import."""

from . import (control, convolution, detection, elementwise, image, movement, pooling, reduction,  # noqa: F401
               signal, sparse, state, strings)
