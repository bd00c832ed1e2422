# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""The base of OpenSpiel's observer of ``python_canasta`` (``canasta.rl.openspiel_game.CanastaObserver``), whose
``set_from`` runs at every step of a learner observing through OpenSpiel, written in Cython (built by setup.py
beside ``canasta.rl.native``; openspiel_game.py falls back to the same method in Python without it).

Why: the observation itself is written by one compiled call and copied by one ``memcpy``; in Python, the two
interpreted calls around them (``set_from``, then ``canasta.rl.tensor.dense``) cost more than that copy.
"""

from libc.string cimport memcpy, memset


cdef class TensorFiller:
    """``set_from(state, player)`` writes the player's observation of an OpenSpiel state's ``table`` into
    ``tensor`` (zeros before the deal): the numbers of ``canasta.rl.tensor.dense(table, player)``.
    ``encoder_for(table)`` gives the table's observation encoder (``canasta.rl.tensor.encoder_for``)."""

    cdef readonly object tensor
    cdef float[::1] values
    cdef Py_ssize_t size
    cdef object encoder_for, table, encoder

    def __init__(self, tensor, encoder_for):
        self.values = tensor  # (a writable, contiguous float32 array, or a TypeError/ValueError here)
        self.size = self.values.shape[0]
        self.tensor = tensor
        self.encoder_for = encoder_for
        self.table = self.encoder = None

    def set_from(self, state, Py_ssize_t player):
        cdef float* out = &self.values[0]
        table = state.table
        if table is None:
            memset(out, 0, self.size * sizeof(float))
            return
        if table is not self.table:  # (the same table at every step of a game: its encoder kept)
            self.encoder = self.encoder_for(table)
            self.table = table
        cdef bytearray buffer = table.write_dense(self.encoder, player)
        if len(buffer) != self.size * sizeof(float):
            raise ValueError(f"the observer's tensor holds {self.size} numbers, the game's observation "
                             f"{len(buffer) // sizeof(float)}")
        memcpy(out, <char*>buffer, self.size * sizeof(float))
