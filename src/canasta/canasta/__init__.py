"""The Canasta family: partnership Canasta and every variant of it (docs/variants/index.md): the cards and
notation, meld keys, moves, the ``Rules`` object and its presets, the immutable ``State`` and the per-seat
view, scoring and Modern American's special hands, the rules engine (``engine/``) and the sampling of hidden
cards for search. The rummy family (``canasta.rummy``) has the same inner shape."""
