"""A player's statistics, counted from the tables where the player's id held a seat."""

from __future__ import annotations

from typing import Any

from ..presets import game_rules as make_rules


def player_stats(player: str, games: list[dict[str, Any]]) -> dict[str, Any]:
    """``games``: rows of ``Store.player_games``. Won: the player's side has the winning final score. A game
    finished by computer players standing in for people who left (``settings["abandoned"]``) counts as
    ``abandoned``: not won, lost or drawn, and its hands and points are left out. A game
    that ended in a stalemate (Basic Rummy) is lost by every player, as its source counts it."""
    per: dict[str, dict[str, Any]] = {}
    total = _blank("all")
    for game in games:
        spec = game["rules"]
        rules = make_rules(spec["variant"], **spec["options"])
        side = rules.side_of(game["seat"])
        for tally in (per.setdefault(rules.name, _blank(rules.name)), total):
            tally["played"] += 1
            result = game["result"]
            if (game.get("settings") or {}).get("abandoned"):
                tally["abandoned"] += 1
                continue
            if game["status"] != "over" or result is None:
                tally["unfinished"] += 1
            elif result.get("stalemate"):
                tally["lost"] += 1
            elif result.get("winner") is None:
                tally["drawn"] += 1
            elif result["winner"] == side:
                tally["won"] += 1
            else:
                tally["lost"] += 1
            for hand in game["pad"]:
                tally["hands"] += 1
                tally["points"] += int(hand["sides"][side]["total"])
    for tally in [*per.values(), total]:
        tally["points_per_hand"] = round(tally["points"] / tally["hands"], 1) if tally["hands"] else None
    return {"player": player, "variants": sorted(per.values(), key=lambda t: str(t["variant"])), "total": total}


def _blank(variant: str) -> dict[str, Any]:
    return {"variant": variant, "played": 0, "won": 0, "lost": 0, "drawn": 0, "unfinished": 0, "abandoned": 0,
            "hands": 0, "points": 0}
