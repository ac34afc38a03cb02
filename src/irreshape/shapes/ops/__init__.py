"""One module per op family; each registers its ops' shape functions, type rules and value evaluators on import.

No family is imported here: :mod:`..registry` imports the families of an op type (:data:`..families.FAMILY_OF`)
when it first meets that type, so a model pays only for the families of its own layers.
"""
