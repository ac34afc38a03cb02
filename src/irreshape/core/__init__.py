"""The lowest layer: rules and findings, results, dims and their arithmetic, the format table, text helpers.

Imports nothing else of the package; every other layer imports it.
"""

__version__ = "0.1.0"
