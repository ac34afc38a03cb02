"""The one topological sort: producers before consumers, stable in the given order."""

from __future__ import annotations

from collections import deque
from collections.abc import Hashable, Iterable, Sequence
from typing import TypeVar

N = TypeVar("N", bound=Hashable)


def topological(nodes: Sequence[N], edges: Iterable[tuple[N, N]]) -> tuple[list[N], list[N]]:
    """(nodes in topological order, the rest): Kahn's algorithm, ties broken by the order of ``nodes``.
    The rest are the nodes on a cycle or fed by one, in the order of ``nodes``. Edges naming a node
    not in ``nodes`` are ignored; an edge from a node to itself makes it cyclic."""
    indeg = dict.fromkeys(nodes, 0)
    succ: dict[N, list[N]] = {}
    for a, b in edges:
        if a in indeg and b in indeg:
            succ.setdefault(a, []).append(b)
            indeg[b] += 1
    queue = deque(n for n, k in indeg.items() if k == 0)
    order: list[N] = []
    while queue:
        n = queue.popleft()
        order.append(n)
        for m in succ.get(n, ()):
            indeg[m] -= 1
            if indeg[m] == 0:
                queue.append(m)
    if len(order) == len(indeg):
        return order, []
    seen = set(order)
    return order, [n for n in indeg if n not in seen]
