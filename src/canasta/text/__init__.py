"""What the faces say, for every family: the names of cards, moves, seats and sides (``names``), a preset's
rules in plain words (``how_to_play``) and its reference page with sources (``variant_docs``, ``doc_tables``:
``canasta rules NAME``)."""
