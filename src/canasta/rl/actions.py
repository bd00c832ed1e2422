"""The fixed integer action space of a preset (docs/rl.md "Actions").

Every engine move is one *atom* or a fixed sequence of atoms:

* one atom for every move that names no cards to choose: ``draw``, ``ask``, ``yes``, ``no``,
  ``withdraw``, ``pass``, ``acaba``, ``ask acaba``, ``layout``, ``declare X``, ``discard X`` (by rank and
  suit) and ``combine A on B``;
* a meld or a take is a *head* atom (meld or take, on which meld key) followed by *number* atoms: for a
  group the counts of naturals, twos and jokers, for a sequence the lowest rank and the number of cards.

A move's atoms are cut short as soon as they name one legal move: ``meld 9 9 9`` is the head ``meld 9``
alone when that is the only legal meld of nines, else the head, then 3 naturals, and so on. The engine
move is played when its last atom is chosen; until then the position waits with a partial move
(``Prefix``). Melds are combinatorial (any number of cards of any rank, three packs in Samba), and this
keeps the space small and fixed, with exactly one atom sequence per legal move.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from ..canasta.melds import SEQUENCE_BASE, SLOTS, is_sequence_key, key_label
from ..canasta.moves import SPECIAL_HAND_NAMES, Move
from ..canasta.rules import Rules

SIMPLE: Final = ("draw", "ask", "yes", "no", "withdraw", "pass", "acaba", "ask-acaba", "layout")
KEYS: Final = 2 * SEQUENCE_BASE  # meld keys 0..127 (melds.py): groups below 64, sequences from 64
GROUP_SLOTS: Final = SEQUENCE_BASE // SLOTS  # a rank's group keys: rank + 16 * slot, slot 0..3
RANKS: Final = 15  # rank codes 0..14 (0 joker, 1 a red three held, 2 twos, 3 threes, 4..14 naturals)
SUIT_CHOICES: Final = 5  # a discard's suit: -1 (none named) or 0..3

DECLARE_BASE: Final = len(SIMPLE)
DISCARD_BASE: Final = DECLARE_BASE + len(SPECIAL_HAND_NAMES)
COMBINE_BASE: Final = DISCARD_BASE + RANKS * SUIT_CHOICES
MELD_BASE: Final = COMBINE_BASE + RANKS * GROUP_SLOTS * GROUP_SLOTS
TAKE_BASE: Final = MELD_BASE + KEYS
NUMBER_BASE: Final = TAKE_BASE + KEYS

Atoms = tuple[int, ...]
# Module-level tables are Final (never rebound, only filled): compiled, a Final name is a static, where
# another module-level name is a look-up in the module's dict at every use.
_ATOMS: Final[dict[int, dict[Move, Atoms]]] = {}  # ActionSpace.atoms, by numbers, then by move
_COMPILED: Final = not __file__.endswith(".py")
_SEEN_SLOTS: Final = 1 << 13  # compiled, the table of moves by identity (``_SeenMoves``; at most half full)
_SEEN_MASK: Final = _SEEN_SLOTS - 1


class _SeenMoves:
    """Atom sequences of moves by the move *object*: the engine hands out the same Move objects position after
    position (nearly all legal moves of a game are ones it listed before), and a legal tree is built for every
    position, so its look-ups go here first. Compiled, an open-addressing table of ids costs a few tens of
    instructions a look-up, where a dict keyed by move hashes the move's seven fields every time. The table
    keeps every move it holds alive, so an id in it cannot have been reused by another object."""

    def __init__(self) -> None:
        self.ids = [0] * _SEEN_SLOTS  # id of the move in each slot (0: free)
        self.moves: list[Move | None] = [None] * _SEEN_SLOTS
        self.atoms: list[Atoms] = [()] * _SEEN_SLOTS
        self.used = 0

    def get(self, move: Move) -> Atoms | None:
        key = id(move)
        ids = self.ids
        i = (key >> 4) & _SEEN_MASK
        while True:
            k = ids[i]
            if k == key:
                return self.atoms[i]
            if k == 0:
                return None
            i = (i + 1) & _SEEN_MASK

    def add(self, move: Move, atoms: Atoms) -> None:
        if self.used >= _SEEN_SLOTS // 2:  # a bound on memory, and the table stays sparse: refilled as needed
            self.ids = [0] * _SEEN_SLOTS
            self.moves = [None] * _SEEN_SLOTS
            self.atoms = [()] * _SEEN_SLOTS
            self.used = 0
        key = id(move)
        ids = self.ids
        i = (key >> 4) & _SEEN_MASK
        while ids[i] != 0:
            i = (i + 1) & _SEEN_MASK
        ids[i] = key
        self.moves[i] = move
        self.atoms[i] = atoms
        self.used += 1


_SEEN: Final[dict[int, _SeenMoves]] = {}  # by the space's numbers


def number_limit(rules: Rules) -> int:
    """The largest number an atom names: the cards of one rank in the pack, the jokers, or the ace (14)."""
    return max(14, 4 * rules.decks, rules.jokers)


@dataclass(frozen=True)
class ActionSpace:
    """The atoms of one preset: ``size`` integers, ``0 .. size - 1``."""

    numbers: int  # number atoms name 0 .. numbers - 1

    @classmethod
    def for_rules(cls, rules: Rules) -> ActionSpace:
        return cls(number_limit(rules) + 1)

    @property
    def size(self) -> int:
        return NUMBER_BASE + self.numbers

    def __reduce__(self) -> tuple[type[ActionSpace], tuple[int]]:
        # rebuilt from its field: compiled with mypyc, a frozen dataclass cannot be copied or unpickled
        # field by field (OpenSpiel's serialization and copy.deepcopy of a Table reach it)
        return (ActionSpace, (self.numbers,))

    def atoms(self, move: Move) -> Atoms:
        """The full atom sequence of a move (``ValueError`` for a move no preset makes)."""
        memo = self.memo()
        atoms = memo.get(move)
        if atoms is None:
            if len(memo) > 200_000:  # moves are values and recur all game long; keep the memo bounded
                memo.clear()
            atoms = memo[move] = self._atoms(move)
        return atoms

    def memo(self) -> dict[Move, Atoms]:
        """The atom sequences of the moves seen so far (what ``atoms`` answers from)."""
        memo = _ATOMS.get(self.numbers)
        if memo is None:
            memo = _ATOMS[self.numbers] = {}
        return memo

    def _atoms(self, move: Move) -> Atoms:
        a = move.action
        if a in SIMPLE:
            return (SIMPLE.index(a),)
        if a == "declare":
            return (DECLARE_BASE + move.rank,)
        if a == "discard":
            return (DISCARD_BASE + move.rank * SUIT_CHOICES + move.suit + 1,)
        if a == "combine":
            rank, target, source = move.rank % SLOTS, move.rank // SLOTS, move.low // SLOTS
            if move.low % SLOTS != rank or is_sequence_key(move.rank) or is_sequence_key(move.low):
                raise ValueError(f"cannot encode {move}: combine joins two groups of one rank")
            return (COMBINE_BASE + (rank * GROUP_SLOTS + target) * GROUP_SLOTS + source,)
        if a in ("meld", "take"):
            head = (MELD_BASE if a == "meld" else TAKE_BASE) + move.rank
            fields: tuple[int, ...]
            if is_sequence_key(move.rank):
                fields = (move.low, move.naturals)
                if move.twos or move.jokers:
                    raise ValueError(f"cannot encode {move}: a sequence holds no wild cards")
            else:
                fields = (move.naturals, move.twos, move.jokers)
                if move.low:
                    raise ValueError(f"cannot encode {move}: a group names no lowest rank")
            if any(not 0 <= f < self.numbers for f in fields) or not 0 <= move.rank < KEYS or move.suit != -1:
                raise ValueError(f"cannot encode {move}: outside this preset's action space")
            return (head, *(NUMBER_BASE + f for f in fields))
        raise ValueError(f"cannot encode {move}: unknown action {a!r}")

    def move(self, atoms: Atoms) -> Move:
        """The move of a full atom sequence (the inverse of ``atoms``)."""
        first = atoms[0]
        if first < DECLARE_BASE:
            return Move(SIMPLE[first])
        if first < DISCARD_BASE:
            return Move("declare", first - DECLARE_BASE)
        if first < COMBINE_BASE:
            rank, suit = divmod(first - DISCARD_BASE, SUIT_CHOICES)
            return Move("discard", rank, suit=suit - 1)
        if first < MELD_BASE:
            rest, source = divmod(first - COMBINE_BASE, GROUP_SLOTS)
            rank, target = divmod(rest, GROUP_SLOTS)
            return Move("combine", rank + SLOTS * target, low=rank + SLOTS * source)
        action, key = ("meld", first - MELD_BASE) if first < TAKE_BASE else ("take", first - TAKE_BASE)
        numbers = [a - NUMBER_BASE for a in atoms[1:]]
        if is_sequence_key(key):
            low, naturals = numbers
            return Move(action, key, naturals, 0, 0, low)
        naturals, twos, jokers = numbers
        return Move(action, key, naturals, twos, jokers)

    def name(self, atom: int) -> str:
        """A readable name for an atom (``draw``, ``discard 9H``, ``meld on 9``, ``#3``)."""
        if not 0 <= atom < self.size:
            return f"?{atom}"
        if atom >= NUMBER_BASE:
            return f"#{atom - NUMBER_BASE}"
        if atom >= MELD_BASE:
            action, key = ("meld", atom - MELD_BASE) if atom < TAKE_BASE else ("take", atom - TAKE_BASE)
            return f"{action} on {key_label(key)}"
        return str(self.move((atom,)))


def _sorted_unique(atoms: list[int]) -> list[int]:
    """The atoms sorted, each once (no set: these are a few small numbers)."""
    ordered = sorted(atoms)
    n = len(ordered)
    j = 1
    while j < n and ordered[j] != ordered[j - 1]:
        j += 1
    # from the first repeat on (if any), each atom once, moved down in place
    kept = j
    while j < n:
        if ordered[j] != ordered[kept - 1]:
            ordered[kept] = ordered[j]
            kept += 1
        j += 1
    del ordered[kept:]
    return ordered


class LegalTree:
    """The legal atoms of one position: the legal moves' atom sequences, grouped atom by atom (each
    group built when first asked for), each sequence cut at the first atom that leaves a single move.

    Built for every position the environments step through, so building costs little: it keeps the legal moves
    and their first atoms, which every position asks for (read off that list without grouping the moves); a
    move's whole sequence is looked up again only where a longer prefix is asked for (the atoms of a meld
    or a take), which most positions never are. A dict keyed by move would hash every move again."""

    def __init__(self, space: ActionSpace, legal: list[Move]) -> None:
        self.space = space
        # Distinct moves have distinct atom sequences (ActionSpace.move inverts atoms; the round-trip
        # tests check it for every legal move of many positions), so no two legal moves share one.
        self._moves = legal
        heads: list[int] = []  # the first atoms as they come (``heads``)
        self._seen: _SeenMoves | None = None
        if _COMPILED:
            seen = self._seen = _SEEN.get(space.numbers)
            if seen is None:
                seen = self._seen = _SEEN[space.numbers] = _SeenMoves()
            for m in legal:
                atoms = seen.get(m)
                if atoms is None:
                    atoms = space.atoms(m)
                    seen.add(m, atoms)
                heads.append(atoms[0])
        else:  # interpreted, a dict look-up is one call, the table's loop many
            memo = space.memo()
            for m in legal:
                atoms = memo.get(m)
                if atoms is None:
                    atoms = space.atoms(m)
                heads.append(atoms[0])
        self._heads = heads
        self._groups: dict[Atoms, dict[int, list[Move]]] | None = None  # by prefix, once asked for
        self._first: list[int] | None = None  # the sorted first atoms, once asked for

    def _full(self, j: int) -> Atoms:
        """The whole atom sequence of legal move ``j``."""
        move = self._moves[j]
        seen = self._seen
        atoms = None if seen is None else seen.get(move)
        return self.space.atoms(move) if atoms is None else atoms

    def _group(self, prefix: Atoms) -> dict[int, list[Move]]:
        """The legal moves whose atoms start with ``prefix``, by their next atom."""
        groups = self._groups
        if groups is None:
            groups = self._groups = {}
        group = groups.get(prefix)
        if group is None:
            group = {}
            k = len(prefix)
            moves, heads = self._moves, self._heads
            first = prefix[0] if k else -1
            for j in range(len(heads)):
                if k and heads[j] != first:  # most moves differ at the first atom: no sequence looked up for them
                    continue
                full = self._full(j)
                if len(full) > k and (k < 2 or full[:k] == prefix):
                    moves_here = group.get(full[k])
                    if moves_here is None:
                        group[full[k]] = [moves[j]]
                    else:
                        moves_here.append(moves[j])
            groups[prefix] = group
        return group

    def legal(self, prefix: Atoms = ()) -> list[int]:
        """The atoms that may follow ``prefix`` (sorted)."""
        return list(self.legal_shared(prefix))

    def legal_shared(self, prefix: Atoms = ()) -> list[int]:
        """``legal(prefix)``, for the first atoms the list this tree keeps: the caller must not change it."""
        if prefix:
            return sorted(self._group(prefix))
        first = self._first
        if first is None:
            # The first atoms often come sorted with no repeats (about 40 % of Classic's positions): then they
            # are the answer as they are, and one pass finds out.
            heads = self._heads
            first = heads
            for j in range(1, len(heads)):
                if heads[j] <= heads[j - 1]:
                    first = _sorted_unique(heads)
                    break
            self._first = first
        return first

    def heads(self) -> list[int]:
        """The first atom of every legal move, in the moves' order, repeats kept: the atoms legal at the start
        of a move, as a mask needs them (unsorted: cheaper than ``legal_shared``). The caller must not change
        the list."""
        return self._heads

    def step(self, prefix: Atoms, atom: int) -> tuple[Atoms, Move | None]:
        """The prefix after ``atom``, and the move once the atoms name a single one (the prefix is then
        empty). ``ValueError`` for an atom that is not legal after ``prefix``."""
        if not prefix:  # the first atom: a scan of the first atoms (most positions see no other atom)
            heads = self._heads
            found = -1
            for j in range(len(heads)):
                if heads[j] == atom:
                    if found >= 0:
                        return (atom,), None
                    found = j
            if found < 0:
                raise ValueError(f"action {atom} ({self.space.name(atom)}) is not legal here")
            return (), self._moves[found]
        moves = self._group(prefix).get(atom)
        if moves is None:
            raise ValueError(f"action {atom} ({self.space.name(atom)}) is not legal here")
        if len(moves) == 1:
            return (), moves[0]
        return (*prefix, atom), None

    def encode(self, move: Move) -> Atoms:
        """The atoms that play ``move``: its full sequence, cut at the first atom naming it alone."""
        try:
            full = self._full(self._moves.index(move))
        except ValueError:
            raise ValueError(f"{move} is not a legal move here") from None
        for k in range(len(full)):
            if len(self._group(full[:k])[full[k]]) == 1:
                return full[: k + 1]
        return full  # pragma: no cover - distinct full sequences: the last atom always names one move
