"""No import circles in the package: the modules of ``src/canasta`` and the imports written at their top level
(those under ``if TYPE_CHECKING:`` too: a circle of types is still two modules that know each other), read
with ``ast``, form a graph with no cycle. Imports inside functions are left out: they run when called, and
the package keeps a few for optional dependencies and start-up time."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "canasta"

# Circles still to break: a circle is known if it holds these modules and no module outside their package.
# issue 46: the server's lobby and rooms know each other (and the modules the lobby passes itself to); left for
# the server's restructuring in that issue. Remove the entry once that circle is gone.
KNOWN: list[frozenset[str]] = [frozenset({"canasta.server.lobby", "canasta.server.room"})]


def known(circle: frozenset[str]) -> bool:
    return any(k <= circle and {m.rpartition(".")[0] for m in circle} == {m.rpartition(".")[0] for m in k}
               for k in KNOWN)


def modules() -> dict[str, tuple[Path, bool]]:
    """Module name -> (its file, whether it is a package's ``__init__``)."""
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        package = parts[-1] == "__init__"
        found[".".join(parts[:-1] if package else parts)] = (path, package)
    return found


def top_level_imports(body: list[ast.stmt]) -> list[ast.Import | ast.ImportFrom]:
    """The import statements run when the module is imported, or read by type checkers at its top level."""
    out: list[ast.Import | ast.ImportFrom] = []
    for node in body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            out.append(node)
        elif isinstance(node, ast.If):
            out += top_level_imports(node.body) + top_level_imports(node.orelse)
        elif isinstance(node, ast.Try):
            for block in (node.body, *(h.body for h in node.handlers), node.orelse, node.finalbody):
                out += top_level_imports(block)
    return out


def graph() -> dict[str, set[str]]:
    """Module -> the package's modules it imports at its top level (``from . import x``: the module x)."""
    every = modules()
    edges: dict[str, set[str]] = {}
    for name, (path, package) in every.items():
        here = name if package else name.rpartition(".")[0]
        targets = set()
        for node in top_level_imports(ast.parse(path.read_text(encoding="utf-8")).body):
            if isinstance(node, ast.Import):
                targets |= {alias.name for alias in node.names if alias.name in every}
                continue
            base = node.module or ""
            if node.level:
                up = here.split(".")[:len(here.split(".")) - node.level + 1]
                base = ".".join([*up, *([node.module] if node.module else [])])
            for alias in node.names:
                full = f"{base}.{alias.name}"
                if full in every:
                    targets.add(full)
                elif base in every:
                    targets.add(base)
        edges[name] = targets - {name}
    return edges


def circles(edges: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(frozenset(component))
    return found


def test_the_graph_is_read() -> None:
    edges = graph()
    assert "canasta.canasta.engine.api" in edges["canasta.canasta.engine"]  # ``from .api import ...`` in a package
    assert "canasta.players.rummy.search" in edges["canasta.players.rummy"]  # ``from .search import ...``
    assert "canasta.canasta.engine.core" in edges["canasta.canasta.engine.turn"]


def test_the_finder_sees_a_circle() -> None:
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [frozenset("abc")]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_no_import_circles() -> None:
    found = circles(graph())
    assert [c for c in found if not known(c)] == [], "import circles"
    assert [k for k in KNOWN if not any(k <= c for c in found)] == [], "a known circle is gone: remove it from KNOWN"


# The layers, lowest first (docs/index.md): a module imports (at its top level) only from its own layer or
# below. ``canasta`` itself (the public API), ``dispatch``, ``moved`` and ``game`` sit on the families.
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    ("shared values", ("canasta.errors", "canasta.bounds", "canasta.jsonform")),
    ("families", ("canasta.canasta", "canasta.rummy", "canasta.game", "canasta.dispatch", "canasta.presets")),
    ("players", ("canasta.players",)),
    ("play", ("canasta.play", "canasta.text", "canasta.positions")),
    ("faces and environments", ("canasta.cli", "canasta.lineplay", "canasta.textui", "canasta.tui", "canasta.server",
                                "canasta.pad", "canasta.rl", "canasta.line", "canasta.__main__")),
]
# The thin modules kept at old import paths, which re-export from above.
OLD_PATHS = {"canasta.rummy.session", "canasta.rummy.lineplay"}


def layer_of(module: str) -> int | None:
    for depth, (_, prefixes) in enumerate(LAYERS):
        if any(module == p or module.startswith(p + ".") for p in prefixes):
            return depth
    return None


def test_the_layers_only_look_down() -> None:
    upward = []
    for module, targets in graph().items():
        here = layer_of(module)
        if here is None or module in OLD_PATHS:
            continue
        upward += [f"{module} -> {t}" for t in sorted(targets) if (layer_of(t) or 0) > here]
    assert upward == [], "a layer imports from a layer above it"


def test_every_module_has_a_layer() -> None:
    outside = ("canasta", "canasta.moved")  # the package, its old paths
    loose = sorted(m for m in modules() if layer_of(m) is None and m not in outside)
    assert loose == [], "modules outside the layers (add them to LAYERS and docs/index.md)"
