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


def cycles(nodes: Sequence[N], edges: Iterable[tuple[N, N]]) -> list[list[N]]:
    """The cycles among ``nodes``: each strongly connected component of more than one node, or of one node with
    an edge to itself, its nodes in the order of ``nodes``; the components in the order of their first node.
    Tarjan's algorithm without recursion (a cycle may run through thousands of layers)."""
    index = {n: i for i, n in enumerate(nodes)}
    succ: dict[N, list[N]] = {n: [] for n in nodes}
    loops: set[N] = set()
    for a, b in edges:
        if a in index and b in index:
            succ[a].append(b)
            if a == b:
                loops.add(a)
    low: dict[N, int] = {}
    num: dict[N, int] = {}
    stack: list[N] = []
    on_stack: set[N] = set()
    found: list[list[N]] = []
    for root in nodes:
        if root in num:
            continue
        work = [(root, 0)]
        while work:
            n, i = work[-1]
            if i == 0:
                num[n] = low[n] = len(num)
                stack.append(n)
                on_stack.add(n)
            nexts = succ[n]
            if i < len(nexts):
                work[-1] = (n, i + 1)
                m = nexts[i]
                if m not in num:
                    work.append((m, 0))
                elif m in on_stack:
                    low[n] = min(low[n], num[m])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[n])
            if low[n] == num[n]:
                comp = []
                while True:
                    m = stack.pop()
                    on_stack.discard(m)
                    comp.append(m)
                    if m == n:
                        break
                if len(comp) > 1 or n in loops:
                    found.append(sorted(comp, key=index.__getitem__))
    return sorted(found, key=lambda c: index[c[0]])
