"""The learned player: a neural network policy trained by ``examples/train_learned.py`` (imitation of the
heuristic player over 4,000 games, then two DAgger rounds; docs/strength.md "The learned player").

It reads the same observation tensor as the rl environments, built from its seat's view alone
(``canasta.rl.encode_view``), and picks a move atom by atom in the action space of ``canasta.rl``
(docs/rl.md): at each step the legal atom the network scores highest, until the atoms name one legal
move. Forced atoms (a single legal one) skip the network. The weights ship with the package
(``learned_classic.npz``, 1.4 MB) and run on numpy alone: playing needs
``pip install 'canasta[rl]'`` (numpy), never PyTorch.

It plays the rules it was trained on and refuses others: Classic with its default options. It is
deterministic (the seed changes nothing).
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from ..canasta.moves import Move
from ..canasta.rules import Rules
from . import Player

WEIGHTS = "learned_classic.npz"
_LOADED: dict[str, Any] = {}


class MissingNumpy(ValueError):
    """numpy (the extra ``[rl]``) is not installed."""


def _numpy() -> Any:
    try:
        import numpy
    except ImportError:
        raise MissingNumpy("the learned player needs numpy, which is not installed: "
                           "pip install 'canasta[rl]'") from None
    return numpy


def _weights() -> dict[str, Any]:
    """The network and what it was trained on, loaded once per process."""
    if not _LOADED:
        np = _numpy()
        with resources.files(__package__).joinpath(WEIGHTS).open("rb") as f, np.load(f) as data:
            arrays = {k: data[k] for k in data.files}
        meta = json.loads(str(arrays.pop("meta")))
        for k in ("w1", "w2", "wp"):
            arrays[k] = arrays[k].astype(np.float32)  # stored as float16 to keep the package small
        _LOADED.update(arrays, meta=meta)
    return _LOADED


class LearnedPlayer(Player):
    name = "learned"

    def __init__(self, seed: int | None = None) -> None:
        self.net = _weights()  # fails here (numpy missing) before any game starts
        self.np = _numpy()
        from ..rl.actions import ActionSpace, LegalTree
        from ..rl.observation import Layout, encode_view

        self.tree, self.encode = LegalTree, encode_view
        self.trained = self.net["meta"]["rules"]
        self.space: ActionSpace | None = None
        self.layout: Layout | None = None
        self.make_space, self.make_layout = ActionSpace.for_rules, Layout.for_rules

    def supports(self, rules: Rules) -> bool:
        """Only the rules it was trained on (Classic with its default options for the shipped weights)."""
        return bool(rules.to_dict() == self.trained)

    def _check(self, view: dict[str, Any]) -> None:
        spec = view["rules"]
        if spec != self.trained:
            raise ValueError(f"the learned player plays only the rules it was trained on ({_label(self.trained)}), "
                             f"not {_label(spec)}")
        if self.space is None:
            from . import rules_of

            rules = rules_of(view)
            self.space, self.layout = self.make_space(rules), self.make_layout(rules)
            meta = self.net["meta"]
            if self.space.size != meta["actions"] or self.layout.size != meta["observation_size"]:
                raise ValueError("the learned player's weights do not fit this version's rl encodings; "
                                 "train them again (examples/train_learned.py)")

    def choose(self, view: dict[str, Any], legal: list[Move]) -> Move:
        if len(legal) == 1:
            return legal[0]
        self._check(view)
        assert self.space is not None and self.layout is not None
        tree = self.tree(self.space, legal)
        prefix: tuple[int, ...] = ()
        while True:
            atoms = tree.legal(prefix)
            atom = atoms[0] if len(atoms) == 1 else self._best(self.encode(self.layout, view, prefix), atoms)
            prefix, move = tree.step(prefix, atom)
            if move is not None:
                return move

    def _best(self, observation: list[float], atoms: list[int]) -> int:
        """The legal atom with the highest score (the first of equals)."""
        np, w = self.np, self.net
        x = np.asarray(observation, np.float32)[w["inputs"]] / w["scale"]
        h = np.maximum(x @ w["w1"] + w["b1"], 0)
        h = np.maximum(h @ w["w2"] + w["b2"], 0)
        scores = h @ w["wp"][:, atoms] + w["bp"][atoms]
        return atoms[int(np.argmax(scores))]


def _label(spec: dict[str, Any]) -> str:
    options = ", ".join(f"{k}={v}" for k, v in sorted(spec.get("options", {}).items()))
    return f"{spec.get('variant')} with {options}" if options else f"{spec.get('variant')} with its default options"
