"""No module of observer imports itself back, however far round (no import circle).

A circle is where a rule starts to live in two places: two modules that need each other are one
responsibility split by accident (``client/attention`` and ``client/status`` were). The graph is
import-linter's own (grimp), so it sees the imports the contracts see.
"""

from __future__ import annotations

import grimp


def circles(graph: grimp.ImportGraph) -> list[list[str]]:
    """Every set of two or more modules that import each other, directly or through others
    (Tarjan's strongly connected components, iteratively: the graph is a few hundred deep)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph.modules):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.find_modules_directly_imported_by(root))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            module, imported = work[-1]
            step = next(imported, None)
            if step is not None:
                if step not in index:
                    index[step] = low[step] = len(index)
                    stack.append(step)
                    on_stack.add(step)
                    work.append((step, iter(sorted(graph.find_modules_directly_imported_by(step)))))
                elif step in on_stack:
                    low[module] = min(low[module], index[step])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[module])
            if low[module] == index[module]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == module:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_no_module_imports_itself_back() -> None:
    assert circles(grimp.build_graph("observer")) == []


def test_a_circle_is_found() -> None:
    graph = grimp.ImportGraph()
    for name in ("a", "a.x", "a.y", "a.z"):
        graph.add_module(name)
    graph.add_import(importer="a.x", imported="a.y")
    graph.add_import(importer="a.y", imported="a.z")
    graph.add_import(importer="a.z", imported="a.x")
    assert circles(graph) == [["a.x", "a.y", "a.z"]]
