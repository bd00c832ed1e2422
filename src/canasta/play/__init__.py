"""The play layer, the same for every family: one game at a table for a face (``seated``, ``session``, the
record saved after every move and resuming: ``record``, ``autosave``), and many games between computer
players (``simulate``; ``arena``: duplicate deals, intervals, Elo, Ray)."""
