#!/usr/bin/env python3
"""Train the policy behind the ``learned`` player (examples/README.md), on CPU with PyTorch.

Two stages, one network (an MLP over the observation tensor of ``canasta.rl``, with a policy head over
the atoms of the action space and a value head):

1. **Imitation**: the heuristic player plays whole games against itself; every decision it takes (every
   atom of its move, at each partial move) becomes a training example: the observation of the seat to
   act, the mask of legal atoms, and the atom the heuristic chose. Masked cross-entropy. The value head
   learns the hand's final score difference from the same games.
2. **PPO with action masking**: the network holds both seats of one side (partners share it, as the
   ``learned`` player does in a tournament) against this project's players (heuristic, greedy) in
   whole games. The reward is the side's hand score minus the other side's, in thousands, at the end of
   each hand; each hand is an episode for the advantages (GAE). PPO's clipped objective, entropy bonus
   and value loss; a small learning rate, so that it refines the imitation rather than forgets it.

Partner seats and the opponents all act through ``canasta.rl.Table`` (the layer under the three rl
APIs), so the observation is exactly the one ``canasta.rl.encode_view`` builds from a seat's view, the
one the ``learned`` player computes in play. Deterministic for a seed (one torch thread). It prints
progress, checkpoints (``--out``.pt, resumable with ``--resume``) and exports the weights the player
loads (``--out``.npz: float16 matrices, numpy only)::

    nice python examples/train_learned.py --imitation-games 4000 --imitation-epochs 10 --hidden 512 \
        --dagger-rounds 2 --dagger-games 500 --dagger-epochs 2 --dagger-lr 1e-4 --ppo-iterations 0 \
        --seed 0 --out runs/bigd
    cp runs/bigd-imitation.npz src/canasta/players/learned_classic.npz

Needs ``pip install 'canasta[rl,train]'``.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

import canasta
from canasta.canasta.engine import legal_moves
from canasta.canasta.view import view
from canasta.players import Player, make_player
from canasta.rl.table import Table

HIDDEN = 256
Sparse = tuple[np.ndarray, np.ndarray]  # an observation's non-zero entries: indices, values
Data = tuple[list[Sparse], list[list[int]], list[int], list[float]]  # observations, masks, targets, values


class Net(nn.Module):
    def __init__(self, inputs: int, actions: int, hidden: int = HIDDEN) -> None:
        super().__init__()
        self.body = nn.Sequential(nn.Linear(inputs, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        self.policy = nn.Linear(hidden, actions)
        self.value = nn.Linear(hidden, 1)

    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h = self.body(x)
        logits = self.policy(h).masked_fill(~mask, -1e9)  # illegal atoms get no probability
        return logits, self.value(h).squeeze(-1)


class Features:
    """Observation tensor -> network input: the entries ever non-zero in the imitation games, scaled by
    their largest value there (entries never seen are always zero in this preset, or too rare to learn)."""

    def __init__(self, inputs: np.ndarray, scale: np.ndarray, size: int) -> None:
        self.inputs, self.scale, self.size = inputs, scale, size
        self.where = np.full(size, -1, np.int64)
        self.where[inputs] = np.arange(len(inputs))

    def row(self, entries: dict[int, float], out: np.ndarray) -> None:
        out.fill(0)
        if entries:
            idx = np.fromiter(entries.keys(), np.int64, len(entries))
            val = np.fromiter(entries.values(), np.float32, len(entries))
            pos = self.where[idx]
            keep = pos >= 0
            out[pos[keep]] = val[keep] / self.scale[pos[keep]]


# -- stage 1: imitation -------------------------------------------------------------------------------
def hand_diffs(table: Table, seat: int) -> float:
    """The seat's side's score minus the other side's in the hand just scored, in thousands."""
    last = table.state.last_hand or ()
    mine = table.column(seat)
    return (last[mine]["total"] - max(h["total"] for c, h in enumerate(last) if c != mine)) / 1000.0


def imitation_data(rules: canasta.Rules, games: int, seed: int, teacher: str, log: Any,
                   learner: Learner | None = None, first: int = 0,
                   extra: Callable[[int, dict[str, Any]], dict[int, float]] | None = None) -> Data:
    """Examples of ``teacher``'s decisions in ``games`` whole games.

    Without ``learner``, the teacher plays every seat (plain imitation). With it (DAgger), the learner
    plays the seats of one side (side ``g % 2`` in game ``g``) and the teacher the others; at each of the
    learner's decisions the teacher is asked what it would play there, its atoms are the labels, and
    then the learner's own move is played: the examples are the positions the learner reaches, which
    plain imitation never shows it (its mistakes lead it off the teacher's paths).

    ``extra(seat, view)``, if given, is called with the view of the seat to move before every move; the
    entries it returns are added to the observations of that move's examples (for experiments with inputs
    the observation tensor does not carry: benchmarks/imitation_probe.py)."""
    observations: list[Sparse] = []
    masks: list[list[int]] = []
    targets: list[int] = []
    values: list[float] = []
    started = time.time()
    for g in range(games):
        deal = seed * 100_000 + first + g
        table = Table(rules, deal, whole_game=True)
        players = [make_player(teacher, deal * 8 + s) for s in range(rules.players)]
        mine = ({s for s in range(rules.players) if table.state.side_of(s) == g % 2}
                if learner is not None else set())
        pending: list[tuple[int, int]] = []  # (example, seat) of the current hand, awaiting its score
        hand = table.state.hand_number
        moves = 0
        while not table.terminal and moves < 5000:
            seat = table.to_move
            legal = legal_moves(table.state)
            seen = view(table.state, seat)
            added = extra(seat, seen) if extra is not None else {}
            move = players[seat].choose(seen, legal)
            labelled = learner is None or seat in mine
            if len(legal) == 1 or not labelled:
                table.play(move)
            else:
                walk = table.copy() if learner is not None else table  # the teacher's path, for the labels
                for atom in walk.tree().encode(move):
                    legal_atoms = walk.legal_actions()
                    if len(legal_atoms) > 1:
                        pending.append((len(targets), seat))
                        entries = walk.observation_entries(seat).values  # sparse: most entries are zero
                        if added:
                            entries = entries | added
                        observations.append((np.fromiter(entries.keys(), np.int16, len(entries)),
                                             np.fromiter(entries.values(), np.float32, len(entries))))
                        masks.append(legal_atoms)
                        targets.append(atom)
                        values.append(0.0)
                    walk.apply_action(atom)
                if learner is not None:
                    learner.play(table, seat)
            moves += 1
            if table.state.hand_number != hand or table.terminal:
                for i, s in pending:
                    values[i] = hand_diffs(table, s)
                pending, hand = [], table.state.hand_number
        if (g + 1) % 50 == 0 or g + 1 == games:
            print(f"{'dagger' if learner else 'imitation'} data: {g + 1}/{games} games, {len(targets)} examples, "
                  f"{time.time() - started:.0f} s", file=log, flush=True)
    return observations, masks, targets, values


class Learner:
    """The network playing as the ``learned`` player does: the highest-scoring legal atom, atom by atom."""

    def __init__(self, net: Net, features: Features, actions: int) -> None:
        self.net, self.features, self.actions = net, features, actions
        self.row = np.zeros((1, len(features.inputs)), np.float32)
        self.mask = np.zeros((1, actions), np.bool_)

    def play(self, table: Table, seat: int) -> None:
        while table.to_move == seat and not table.terminal:
            atoms = table.legal_actions()
            if len(atoms) == 1:
                atom = atoms[0]
            else:
                self.features.row(table.observation_entries(seat).values, self.row[0])
                self.mask.fill(False)
                self.mask[0, atoms] = True
                with torch.no_grad():
                    logits, _ = self.net(torch.from_numpy(self.row), torch.from_numpy(self.mask))
                atom = int(logits[0].argmax())
            if table.apply_action(atom) is not None:
                return


def merge(a: tuple[list[Any], ...], b: tuple[list[Any], ...]) -> tuple[list[Any], ...]:
    return tuple(x + y for x, y in zip(a, b, strict=True))


def fit_features(observations: list[Sparse], size: int) -> Features:
    top = np.zeros(size, np.float32)
    for idx, val in observations:
        np.maximum.at(top, idx, np.abs(val))
    inputs = np.flatnonzero(top)
    return Features(inputs, np.maximum(top[inputs], 1.0).astype(np.float32), size)


def imitate(net: Net, features: Features, data: tuple[Any, ...], actions: int, epochs: int, seed: int,
            log: Any, lr: float = 1e-3) -> tuple[list[int], list[int]]:
    """Masked cross-entropy over ``epochs``, 5 % of the examples held out. Returns the held-out examples'
    indices and the atoms the network chose for them after the last epoch."""
    observations, masks, targets, values = data
    n = len(targets)
    x = np.zeros((n, len(features.inputs)), np.float32)
    for i, (idx, val) in enumerate(observations):
        pos = features.where[idx]
        keep = pos >= 0
        x[i, pos[keep]] = val[keep] / features.scale[pos[keep]]
    m = np.zeros((n, actions), np.bool_)
    for i, legal in enumerate(masks):
        m[i, legal] = True
    xt, mt = torch.from_numpy(x), torch.from_numpy(m)
    yt, vt = torch.tensor(targets), torch.tensor(values, dtype=torch.float32)
    gen = torch.Generator().manual_seed(seed)
    held = torch.randperm(n, generator=gen)
    test, train = held[: n // 20], held[n // 20:]
    opt = torch.optim.Adam(net.parameters(), lr=lr)
    chosen: list[int] = []
    for epoch in range(epochs):
        net.train()
        order = train[torch.randperm(len(train), generator=gen)]
        total = 0.0
        for b in range(0, len(order), 512):
            idx = order[b:b + 512]
            logits, value = net(xt[idx], mt[idx])
            loss = nn.functional.cross_entropy(logits, yt[idx]) + 0.5 * nn.functional.mse_loss(value, vt[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(idx)
        net.eval()
        with torch.no_grad():
            logits, value = net(xt[test], mt[test])
            chosen = logits.argmax(-1).tolist()
            agree = float((logits.argmax(-1) == yt[test]).float().mean())
            vloss = float(nn.functional.mse_loss(value, vt[test]))
        print(f"imitation epoch {epoch + 1}/{epochs}: train loss {total / len(order):.4f}, held-out agreement "
              f"with the teacher {agree:.3f}, value mse {vloss:.4f}", file=log, flush=True)
    return test.tolist(), chosen


# -- stage 2: PPO -------------------------------------------------------------------------------------
class Game:
    """One whole game: the learner holds the seats of side ``side``, ``opponent`` the others."""

    def __init__(self, rules: canasta.Rules, deal: int, side: int, opponent: str) -> None:
        self.table = Table(rules, deal, whole_game=True)
        self.mine = [s for s in range(rules.players) if self.table.state.side_of(s) == side]
        self.others: dict[int, Player] = {s: make_player(opponent, deal * 8 + s)
                                          for s in range(rules.players) if s not in self.mine}
        self.hand = self.table.state.hand_number
        self.steps: list[dict[str, Any]] = []  # this hand's learner steps
        self.moves = 0

    def advance(self) -> None:
        """Let the opponents (and forced moves) play until a learner seat has a choice or the game ends."""
        t = self.table
        while not t.terminal and self.moves < 5000:
            seat = t.to_move
            if seat in self.mine:
                if len(t.legal_actions()) > 1:
                    return
                t.apply_action(t.legal_actions()[0])
            else:
                t.play(self.others[seat].choose(view(t.state, seat), legal_moves(t.state)))
            self.moves += 1
            self.close_hand()

    def close_hand(self) -> list[dict[str, Any]]:
        """At a hand's end, the reward goes to each learner seat's last step; the steps are returned."""
        t = self.table
        if t.state.hand_number == self.hand and not t.terminal:
            return []
        self.hand = t.state.hand_number
        if t.state.last_hand is None or not self.steps:
            self.steps = []
            return []
        reward = hand_diffs(t, self.mine[0])
        for seat in self.mine:
            chain = [s for s in self.steps if s["seat"] == seat]
            if chain:
                chain[-1]["reward"] = reward
                advantages(chain)
        done, self.steps = self.steps, []
        self.finished.extend(done)
        return done

    finished: list[dict[str, Any]]

    @property
    def over(self) -> bool:
        return self.table.terminal or self.moves >= 5000


def rollout(net: Net, features: Features, rules: canasta.Rules, deals: list[int], opponents: list[str],
            actions: int, rng: torch.Generator) -> tuple[list[dict[str, Any]], list[float]]:
    """Play one whole game per deal, the learner sampling its atoms; the finished hands' steps and each
    game's final score difference (learner's side minus the other)."""
    games = []
    for i, (deal, opponent) in enumerate(zip(deals, opponents, strict=True)):
        g = Game(rules, deal, i % 2, opponent)
        g.finished = []
        g.advance()
        games.append(g)
    buf = np.zeros((len(games), len(features.inputs)), np.float32)
    while True:
        live = [g for g in games if not g.over]
        if not live:
            break
        masks = np.zeros((len(live), actions), np.bool_)
        for k, g in enumerate(live):
            t = g.table
            features.row(t.observation_entries(t.to_move).values, buf[k])
            masks[k, t.legal_actions()] = True
        with torch.no_grad():
            logits, value = net(torch.from_numpy(buf[: len(live)]), torch.from_numpy(masks))
            dist = torch.distributions.Categorical(logits=logits)
            chosen = torch.multinomial(dist.probs, 1, generator=rng).squeeze(-1)
            logp = dist.log_prob(chosen)
        for k, g in enumerate(live):
            t = g.table
            g.steps.append({"x": buf[k].copy(), "mask": masks[k].copy(), "action": int(chosen[k]),
                            "logp": float(logp[k]), "value": float(value[k]), "reward": 0.0, "seat": t.to_move})
            t.apply_action(int(chosen[k]))
            g.moves += 1
            g.close_hand()
            g.advance()
    steps: list[dict[str, Any]] = []
    finals = []
    for g in games:
        steps.extend(g.finished)
        col = g.table.column(g.mine[0])
        scores = g.table.state.scores
        finals.append(float(scores[col] - max(s for c, s in enumerate(scores) if c != col)))
    return steps, finals


def advantages(chain: list[dict[str, Any]], gamma: float = 1.0, lam: float = 0.95) -> None:
    """GAE over one seat's steps of one hand (an episode: the hand's reward is on its last step)."""
    gae, next_value = 0.0, 0.0
    for s in reversed(chain):
        delta = s["reward"] + gamma * next_value - s["value"]
        gae = delta + gamma * lam * gae
        s["adv"], s["ret"] = gae, gae + s["value"]
        next_value = s["value"]


def ppo_update(net: Net, opt: torch.optim.Optimizer, steps: list[dict[str, Any]], epochs: int,
               gen: torch.Generator, clip: float = 0.2, entropy: float = 0.003) -> dict[str, float]:
    x = torch.from_numpy(np.stack([s["x"] for s in steps]))
    m = torch.from_numpy(np.stack([s["mask"] for s in steps]))
    a = torch.tensor([s["action"] for s in steps])
    old = torch.tensor([s["logp"] for s in steps])
    adv = torch.tensor([s["adv"] for s in steps], dtype=torch.float32)
    ret = torch.tensor([s["ret"] for s in steps], dtype=torch.float32)
    adv = (adv - adv.mean()) / (adv.std() + 1e-8)
    stats = {"policy": 0.0, "value": 0.0, "entropy": 0.0, "kl": 0.0}
    batches = 0
    for _ in range(epochs):
        order = torch.randperm(len(steps), generator=gen)
        for b in range(0, len(order), 1024):
            idx = order[b:b + 1024]
            logits, value = net(x[idx], m[idx])
            dist = torch.distributions.Categorical(logits=logits)
            logp = dist.log_prob(a[idx])
            ratio = torch.exp(logp - old[idx])
            pg = -torch.min(ratio * adv[idx], torch.clamp(ratio, 1 - clip, 1 + clip) * adv[idx]).mean()
            # the entropy of masked logits: illegal atoms have probability 0 (their -1e9 logits add nothing)
            ent = dist.entropy().mean()
            vl = nn.functional.mse_loss(value, ret[idx])
            loss = pg + 0.5 * vl - entropy * ent
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(net.parameters(), 0.5)
            opt.step()
            stats["policy"] += pg.item()
            stats["value"] += vl.item()
            stats["entropy"] += ent.item()
            stats["kl"] += (old[idx] - logp.detach()).mean().item()
            batches += 1
    return {k: v / max(batches, 1) for k, v in stats.items()}


# -- weights ------------------------------------------------------------------------------------------
def export(net: Net, features: Features, rules: canasta.Rules, path: Path, about: dict[str, Any]) -> None:
    """The weights the ``learned`` player loads (canasta/players/learned.py): numpy only, float16 matrices."""
    body0, body2 = net.body[0], net.body[2]
    arrays = {
        "inputs": features.inputs.astype(np.int32), "scale": features.scale.astype(np.float32),
        "w1": body0.weight.detach().numpy().T.astype(np.float16), "b1": body0.bias.detach().numpy().astype(np.float32),
        "w2": body2.weight.detach().numpy().T.astype(np.float16), "b2": body2.bias.detach().numpy().astype(np.float32),
        "wp": net.policy.weight.detach().numpy().T.astype(np.float16),
        "bp": net.policy.bias.detach().numpy().astype(np.float32),
    }
    meta = {"format": 1, "rules": rules.to_dict(), "observation_size": features.size,
            "actions": int(net.policy.out_features), "hidden": int(net.policy.in_features), **about}
    np.savez_compressed(path, meta=np.array(json.dumps(meta)), **arrays)  # type: ignore[arg-type]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--variant", default="classic")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--teacher", default="heuristic", help="the player imitated in stage 1")
    p.add_argument("--imitation-games", type=int, default=400)
    p.add_argument("--imitation-epochs", type=int, default=8)
    p.add_argument("--hidden", type=int, default=HIDDEN, help="units in each hidden layer")
    p.add_argument("--dagger-rounds", type=int, default=0,
                   help="after imitation: rounds of DAgger (the teacher labels the positions the network reaches)")
    p.add_argument("--dagger-games", type=int, default=300, help="games per DAgger round")
    p.add_argument("--dagger-epochs", type=int, default=3, help="epochs over all the data after each DAgger round")
    p.add_argument("--dagger-lr", type=float, default=3e-4)
    p.add_argument("--ppo-iterations", type=int, default=60)
    p.add_argument("--games-per-iteration", type=int, default=16)
    p.add_argument("--ppo-epochs", type=int, default=3)
    p.add_argument("--lr", type=float, default=5e-5, help="PPO's learning rate")
    p.add_argument("--opponents", default="heuristic,heuristic,heuristic,greedy",
                   help="the opponents of the PPO games, in turn")
    p.add_argument("--out", default="runs/learned", help="writes OUT.pt (checkpoint) and OUT.npz (weights)")
    p.add_argument("--resume", action="store_true", help="go on from OUT.pt")
    p.add_argument("--init", help="start from this checkpoint (an OUT.pt) instead of imitation")
    a = p.parse_args(argv)

    torch.set_num_threads(1)
    torch.manual_seed(a.seed)
    random.seed(a.seed)
    np.random.seed(a.seed)
    torch.use_deterministic_algorithms(True)
    rules = canasta.rules(a.variant)
    out = Path(a.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    log = sys.stdout
    from canasta.rl.actions import ActionSpace
    from canasta.rl.observation import Layout

    actions, size = ActionSpace.for_rules(rules).size, Layout.for_rules(rules).size
    opponents = [o.strip() for o in a.opponents.split(",")]
    gen = torch.Generator().manual_seed(a.seed)
    history: list[dict[str, Any]] = []
    start_iteration = 0
    if a.resume:
        ck = torch.load(out.with_suffix(".pt"), weights_only=False)
        features = Features(ck["inputs"], ck["scale"], size)
        net = Net(len(features.inputs), actions, ck["net"]["value.weight"].shape[1])
        net.load_state_dict(ck["net"])
        opt = torch.optim.Adam(net.parameters(), lr=a.lr)
        opt.load_state_dict(ck["opt"])
        gen.set_state(ck["gen"])
        history, start_iteration = ck["history"], ck["iteration"]
        print(f"resumed at iteration {start_iteration}", file=log, flush=True)
    else:
        if a.init:  # a network trained before (its checkpoint): DAgger rounds and PPO go on from it
            ck = torch.load(a.init, weights_only=False)
            features = Features(ck["inputs"], ck["scale"], size)
            net = Net(len(features.inputs), actions, ck["net"]["value.weight"].shape[1])
            net.load_state_dict(ck["net"])
            data: Data = ([], [], [], [])
            print(f"started from {a.init}", file=log, flush=True)
        else:
            data = imitation_data(rules, a.imitation_games, a.seed, a.teacher, log)
            features = fit_features(data[0], size)
            print(f"{len(features.inputs)} of {size} observation entries used; {actions} atoms", file=log, flush=True)
            net = Net(len(features.inputs), actions, a.hidden)
            imitate(net, features, data, actions, a.imitation_epochs, a.seed, log)
        for r in range(a.dagger_rounds):
            export(net, features, rules, out.parent / (out.name + f"-dagger{r}.npz"),
                   {"stage": "dagger", "teacher": a.teacher, "games": a.imitation_games, "dagger_rounds": r})
            net.eval()
            more = imitation_data(rules, a.dagger_games, a.seed, a.teacher, log, Learner(net, features, actions),
                                  first=20_000 + r * 1000)
            data = merge(data, more)  # type: ignore[assignment]
            print(f"dagger round {r + 1}/{a.dagger_rounds}: {len(data[2])} examples in all", file=log, flush=True)
            imitate(net, features, data, actions, a.dagger_epochs, a.seed + r + 1, log, lr=a.dagger_lr)
        del data
        opt = torch.optim.Adam(net.parameters(), lr=a.lr)
        export(net, features, rules, out.parent / (out.name + "-imitation.npz"),
               {"stage": "imitation" if not a.dagger_rounds else "dagger", "teacher": a.teacher,
                "games": 0 if a.init else a.imitation_games, "dagger_rounds": a.dagger_rounds,
                "dagger_games": a.dagger_games})

    def save(iteration: int) -> None:
        torch.save({"net": net.state_dict(), "opt": opt.state_dict(), "gen": gen.get_state(),
                    "inputs": features.inputs, "scale": features.scale, "history": history,
                    "iteration": iteration}, out.with_suffix(".pt"))
        export(net, features, rules, out.with_suffix(".npz"),
               {"stage": "ppo", "teacher": a.teacher, "ppo_iterations": iteration, "seed": a.seed})

    save(start_iteration)
    started = time.time()
    for it in range(start_iteration, a.ppo_iterations):
        deals = [a.seed * 100_000 + 50_000 + it * a.games_per_iteration + k for k in range(a.games_per_iteration)]
        opp = [opponents[(it * a.games_per_iteration + k) % len(opponents)] for k in range(a.games_per_iteration)]
        net.eval()
        steps, finals = rollout(net, features, rules, deals, opp, actions, gen)
        net.train()
        stats = ppo_update(net, opt, steps, a.ppo_epochs, gen)
        rewards = [s["reward"] for s in steps if s["reward"]]
        history.append({"iteration": it + 1, "steps": len(steps), "mean_hand_diff": float(np.mean(rewards)) * 1000,
                        "mean_game_diff": float(np.mean(finals)), "won": float(np.mean([f > 0 for f in finals])),
                        **stats})
        h = history[-1]
        print(f"ppo {it + 1}/{a.ppo_iterations}: {h['steps']} steps, hand diff {h['mean_hand_diff']:+.0f}, "
              f"game diff {h['mean_game_diff']:+.0f}, won {h['won']:.2f}, entropy {h['entropy']:.3f}, "
              f"kl {h['kl']:.4f}, value {h['value']:.3f}, {time.time() - started:.0f} s", file=log, flush=True)
        save(it + 1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
