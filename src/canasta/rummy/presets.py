"""The rummy family's named presets and aliases (docs/sources.md §8): the one place where they differ."""

from __future__ import annotations

from typing import Any

from .rules import RummyRules, check_rummy_option, make_rummy_rules

PRESETS: dict[str, dict[str, Any]] = {
    # §8.1 [S2,BcR]: 13 cards for two, 7 for more; any pile card and all above it, used at once; ace high or
    # low; each scores his table less his hand; face values (D19); game 500, the player who went out wins a
    # tie (D19, S2's main text).
    "500-rum": dict(players=3, teams=3),
    # §8.1 partnership [S2]: four players, partners opposite, one score per side; "The team with the highest
    # score over 500 wins, even if a team goes out first".
    "500-rum-partnership": dict(players=4, teams=2, tie="highest"),
    # §8.1 Persian Rummy [S2]: four players in partnerships, 56 cards with four jokers of 20 melded only as
    # sets; a meld of four laid down at once counts double; going out +25; two deals and +50 to the better side.
    "persian-rummy": dict(players=4, teams=2, jokers=4, joker_sets=True, joker_value=20, four_at_once_double=True,
                          going_out_bonus=25, game_bonus=50, hands_per_game=2, target=0),
    # Dealer's Gambit, named in §8.1 [S2], rules from one secondary page [RD]: 500 Rum with 54 cards, two wild
    # jokers of which one is laid aside at each deal as the dealer's joker.
    "dealers-gambit": dict(players=3, teams=3, jokers=2, dealers_joker=True),
    # §8.2 [S1-rummy]: 10 cards for two, 7 for more; the top discard only, kept, never discarded in the same
    # turn; ace low; the stock re-used once, then a stalemate, also declared as soon as nobody can finish; a
    # stalemate ends the game, a loss for all; winner takes all, going rummy doubles;
    # game 100 / 150 / 200 by players.
    "basic-rummy": dict(players=2, teams=2, hand_size_two=10, hand_size_more=7, ace="low", pile_take="top",
                        taken_card="keep", discard_taken_same_turn=False, empty_stock="reshuffle_once",
                        stalemate_when_stuck=True, stalemate_ends_game=True,
                        ace_low_value=1, ace_high_value=1, scoring="winner_takes_all", going_rummy_double=True,
                        targets_by_players=(100, 150, 200)),
}

ALIASES: dict[str, str] = {
    "rummy-500": "500-rum",
    "500-rummy": "500-rum",
    "500rum": "500-rum",
    "pinochle-rummy": "500-rum",
    "michigan-rum": "500-rum",
    "michigan-rummy": "500-rum",
    "partnership-500-rum": "500-rum-partnership",
    "persian": "persian-rummy",
    "rummy": "basic-rummy",
    "dealer-gambit": "dealers-gambit",
}

# Named in the sources but not playable yet, with the reason.
UNSUPPORTED: dict[str, str] = {}


def rummy_names() -> list[str]:
    return sorted(PRESETS)


def rummy_key(name: str) -> str | None:
    """The preset a name or alias stands for, None when it is no rummy name (``ValueError`` for a named but
    unsupported one)."""
    key = name.strip().lower().replace("_", "-").replace(" ", "-").replace("'", "")
    key = ALIASES.get(key, key)
    if key in UNSUPPORTED:
        raise ValueError(f"variant {name!r} is not supported yet: {UNSUPPORTED[key]}")
    return key if key in PRESETS else None


def rummy_rules(key: str, overrides: dict[str, Any]) -> RummyRules:
    base = dict(PRESETS[key])
    if "players" in overrides and "teams" not in overrides and base["teams"] == base["players"]:
        # a game each for himself stays so with another number of players
        base["teams"] = check_rummy_option("players", overrides["players"])
    return make_rummy_rules(key, base, overrides)


_RULES: dict[str, RummyRules] = {}


def rules_of_view(view: dict[str, Any]) -> RummyRules:
    """The rules of the game a view shows, with the jokers' effect nominated for the hand (Dealer's Gambit)."""
    spec = view["rules"]
    effect = view.get("joker_effect") or ""
    key = repr(sorted(spec["options"].items())) + spec["variant"] + "/" + effect
    r = _RULES.get(key)
    if r is None:
        name = rummy_key(spec["variant"])
        if name is None:
            raise ValueError(f"{spec['variant']!r} is not a rummy variant")
        r = _RULES[key] = rummy_rules(name, dict(spec["options"])).for_hand(effect)
    return r
