"""The search kernel's generator: the random-play kernel (emit.py) made able to stop at a decision and resume.

Owns a second kernel module per spec, for games with search agents (`greedy`, `cautious`, `mcts`, and the
fixed `first` and `last`; agents.py runs them). Its game code is emit.py's, with three changes, made by
overriding the emitter rather than copying it:

- every pick goes through `_apick(st, n, who)`, which knows who chooses: a random seat picks as the
  random kernel does; a search seat's decision *pauses* the game (every function returns at once);
- the flow can be entered again at the action decision of a turn in progress (`play` with a resume
  flag; the phase and its round count live in the array, not in locals);
- at the top of every action decision the real game keeps a *snapshot* (one array copy) and then
  the list of choices made since (the prefix).

A decision is resumed, in the real game or in a search's copy, by copying the snapshot into the array and
replaying the prefix (the snapshot keeps the true chance stream, so the same draws happen) up to the
decision: that also rebuilds the locals of a rule paused at a `choose` inside an action. There, a copy is
determinized (search_deal.py: the cards its seat cannot see re-dealt, the hidden values it may not read
drawn again, the others' sealed picks of a `choose together` redrawn; its chance is re-seeded from the
agent's stream), so nothing the seat cannot see survives the decision. For that this generator keeps who
may read each variable (a `reveal` sets its flag, a new value clears it) and writes the `choose together`
loop that redraws. What the Python determinizer does not model, this does not either (card ids held in
the locals of a paused rule).

The agents' part of the array (`AG`, between the work space and the records) holds the control slots,
the prefix and the snapshot. Only the generator's own text goes into the source, as in emit.py.

The numba source that does not depend on the spec (`_AGENT_RUNTIME`, `_AGENT_DRIVER`) is
search_prelude.py's.
"""
from __future__ import annotations

import re
from typing import Any

from ..lang.kinds import ELEMENT, T
from ..lower import ir
from . import layout as Y
from ..lang.limits import MAX_OPTIONS
from .emit import Emitter, _DRIVER
from .search_deal import _DEAL_RUNTIME, Secrets
from .search_prelude import _AGENT_DRIVER, _AGENT_RUNTIME
from .unsupported import Unsupported

# control slots, from AG
(A_MODE, A_PAUSED, A_PH, A_RND, A_RES, A_WHO, A_NPRE, A_KPRE, A_PEND, A_ME, A_TURN0, A_FK, A_SUB, A_FORCE,
 A_DEAL, A_SEED, A_SNAPK, A_SAVECC, A_HALT, A_NOPT, A_LEFT, A_PLAYED, A_SITE, A_NODE, A_NN, A_NPATH, A_CAP,
 A_JUDGED, A_LIMIT, A_MAXP, A_TIED, A_TAU, A_C, A_DEPTH, A_DCACHE, A_KEEPDEAL, A_NMOV, A_OWNER, A_ROOT,
 A_SECRET) = range(40)
MOVES_KEPT = 4096  # the real game's last moves (chooser, key, whether others may not see it), for mcts's kept tree
TIMED_NODES = 1 << 20  # nodes at most in the tree of an mcts search with a time budget (a full tree stops it)
A_BEGUN = 40  # the turn the current round of a phase without `until` began at (flow state, as PH and RND)
A_TOG = 41  # 1 at a `choose together` pick; 2 once a copy resumed there (its loop redraws the others' picks)
A_REW = 42  # a judged playout's reward per seat (fixed point, REWARD_ONE = 1.0)
NODE = 8  # an MCTS node: key, chooser, visits, availability, reward (fixed point), first child, next sibling
A_KIND = 56  # per seat: 0 random, 1 a search agent (the real game pauses at its decisions)
A_ARNG = 72  # per seat: the search agent's own random stream
A_RDR = 88  # the stream a `choose together`'s redrawn picks come from (search_deal.py's `_deal` seeds it)
A_US = 96  # greedy's follow-up uniforms (FOLLOW_UP of them), as 53-bit integers
FOLLOW_UP = 12
A_PRE = 128
PRE_CAP = 8192  # choices between two action decisions (a turn's own choices): more is an error
# sub-modes of a search's copy after the resumed decision
SUB_FOLLOW, SUB_NEXT = 1, 2

_PICK = re.compile(r"^(\s*)(\w+) = _pick\(st, (.+)\)$")


class SearchEmitter(Emitter):
    """emit.Emitter with resumable decisions and the agents' part of the array (see the module docstring)."""

    def __init__(self, g: ir.Game, heuristic: ir.X | None, unseen: list[list[int]], homes: list[int],
                 secrets: Secrets, interchange: Any = None):
        super().__init__(g, interchange)
        self.heuristic = heuristic
        self.secrets = secrets
        self.unseen = unseen
        self.homes = homes
        self.AG = self.RCH
        self.snap_at = A_PRE + PRE_CAP
        self.npvw = max(1, len(g.pvars))
        self.wts = self.AG + self.snap_at + self.Y.size  # the scoring keys' weights (x 1e9), per player variable
        self.ch = self.wts + self.npvw  # the tree's children of a decision's options (scratch)
        self.db = self.ch + MAX_OPTIONS + 2  # a greedy sample's deal, kept for its other options
        self.mv = self.db + 1 + 3 * self.Y.n_cards  # mcts: per seat its last move's number, then the moves
        self.nsh = len(secrets.vis)  # per variable slot (from GV), whether a `reveal` showed it: now, at the snapshot
        self.sh = self.mv + self.Y.max_players + 3 * MOVES_KEPT
        self.shs = self.sh + self.nsh
        self.RCH = self.shs + self.nsh
        self._who: str | None = None
        self._who_in_play = False
        self._site = 0
        self._secret = False

    # -- picks know who chooses, and pause -----------------------------------------------------------
    def line(self, text: str) -> None:
        m = _PICK.match(text)
        if m is None:
            super().line(text)
            return
        if self._who is None:  # a decision whose chooser this emitter does not know: never a silent random pick
            raise Unsupported("a decision of this kind with search agents is not yet on the kernel")
        _indent, var, n = m.groups()
        who, in_play = self._who, self._who_in_play
        self._who = None
        site = self._site
        if site != 0:
            super().line(f"st[{self.AG + A_SECRET}] = {int(self._secret)}")
        if site == 2:
            super().line(f"_vkeys(st, {n.removesuffix('.shape[0]')})")
        super().line(f"st[{self.AG + A_SITE}] = {site}")
        super().line(f"{var} = _apick(st, {n}, {who})")
        super().line(f"if {var} < 0:")
        super().line("    return" if in_play else "    return 3")

    def s_ChooseOption(self, s: ir.ChooseOption) -> None:
        slot = f"st[{self.AG + A_WHO}]"
        super().line(f"{slot} = {self.ex(s.by) if s.by is not None else f'st[{Y.CUR}]'}")
        self._who, self._who_in_play, self._site = slot, False, 1
        self._secret = any(o.slot is not None and ELEMENT.get(o.coll.ty, T.INT) is T.CARD for o in s.options)
        super().s_ChooseOption(s)

    def s_ChooseValue(self, s: ir.ChooseValue) -> None:
        slot = f"st[{self.AG + A_WHO}]"
        super().line(f"{slot} = {self.ex(s.by) if s.by is not None else f'st[{Y.CUR}]'}")
        self._who, self._who_in_play, self._site = slot, False, 2
        self._secret = ELEMENT.get(s.source.ty, T.INT) is T.CARD
        super().s_ChooseValue(s)

    def s_ChooseSubset(self, s: ir.S) -> None:
        slot = f"st[{self.AG + A_WHO}]"
        by = getattr(s, "by", None)
        super().line(f"{slot} = {self.ex(by) if by is not None else f'st[{Y.CUR}]'}")
        self._who, self._who_in_play, self._site = slot, False, 3
        self._secret = True
        super().s_ChooseSubset(s)

    def before_together_pick(self, who: str, k: str) -> None:
        """In emit.py's `choose together` loop (each player picks in turn, then the body runs once per
        player), each pick sealed (no kept mcts tree follows it). A search's copy resumed at a pick of this
        loop does not know the picks made before it: `after_together_pick` draws each one of another seat
        again among that seat's options in the re-dealt position (agents/determinize.py's
        `_redraw_hidden_choices`)."""
        super().line(f"st[{self.AG + A_TOG}] = 1")
        self._who, self._who_in_play, self._site, self._secret = f"{who}[{k}]", False, 2, True

    def after_together_pick(self, s: ir.ChooseTogether, who: str, picks: str, k: str) -> None:
        j, other, AG = self.tmp("j"), self.tmp("s"), self.AG
        self.line(f"if st[{AG + A_TOG}] == 2:")
        self.depth += 1
        self.line(f"for {j} in range({k}):")
        self.line(f"    if {who}[{j}] != st[{AG + A_ME}]:")
        self.depth += 2
        self.bind(s.slot + 1, T.PLAYER, f"{who}[{j}]")
        self.line(f"{other} = {self.copied(s.source)}")
        self.line(f"if {other}.shape[0] > 0:")
        self.line(f"    {picks}[{j}] = {other}[_below(st, {AG + A_RDR}, {other}.shape[0])]")
        self.depth -= 3
        self.line(f"st[{AG + A_TOG}] = 0")

    # -- who may read a hidden variable (search_deal.py): `reveal` shows it, a change hides it again --------
    def s_Reveal(self, s: ir.Reveal) -> None:
        Yl, sh = self.Y, self.sh
        if isinstance(s.key, ir.Keyed):
            slot = self.tmp("i")
            self.line(f"{slot} = {self.keyed_slot(s.key)}")
            self.line(f"st[{sh - Yl.gv} + {slot}] = 1")
        elif s.scope == "global":
            for row in s.rows:
                self.line(f"st[{sh + row}] = 1")
        elif s.owner is not None:
            o = self.scalar(s.owner)
            self.line(f"if 0 <= {o} < {Yl.max_players}:")
            for row in s.rows:
                self.line(f"    st[{sh + self.secrets.n_global + row * Yl.max_players} + {o}] = 1")
        self.guard()

    def stored(self, target: ir.X, slot: str) -> None:
        if isinstance(target, ir.Var):
            scope, row = target.scope, target.index
        elif isinstance(target, ir.Keyed):
            scope, row = target.scope, target.base
        else:
            return
        if self.secrets.hidden(scope, row):
            self.line(f"st[{self.sh - self.Y.gv} + {slot}] = 0")

    def decide(self, turn: ir.Turn, call_block) -> None:
        super().line("_snap(st, 1)")
        self._who, self._who_in_play, self._site = f"st[{Y.CUR}]", True, 0
        super().decide(turn, call_block)

    # -- a flow that can be entered at a turn's action decision --------------------------------------
    def flow(self) -> None:
        g = self.g
        AG = self.AG
        PH, RND, RES = f"st[{AG + A_PH}]", f"st[{AG + A_RND}]", f"st[{AG + A_RES}]"
        call_block = self.block_caller()
        saved, self.lines, self.depth = self.lines, [], 1
        self.line(f"n = st[{Y.N}]")
        self.line("st[TOP] = 0")
        self.line(f"res = {RES}")
        self.line(f"{RES} = 0")
        self.line("if res == 0:")
        self.depth += 1
        self.line("pass")
        self.setup(g, call_block)
        self.depth -= 1
        for k, ph in enumerate(g.phases):
            self.line(f"if res == 0 or {PH} == {k}:")
            self.depth += 1
            self.line("if res == 0:")
            self.line(f"    {PH} = {k}")
            self.line(f"    {RND} = 0")
            self.line("while True:")
            self.depth += 1
            self.line("if res == 0:")
            self.depth += 1
            self.round_start(ph, RND, call_block)
            self.line(f"st[{AG + A_BEGUN}] = st[{Y.TURN}]")  # a phase without `until` is one round
            self.depth -= 1
            self.for_line("while True:")
            self.depth += 1
            self.line("if res == 0:")
            self.depth += 1
            self.line(f"if st[{AG + A_HALT}] != 0 and st[{AG + A_PEND}] == 0:")
            self.line(f"    st[{AG + A_PAUSED}] = 1")
            self.line("    return")
            self.start_of_turn(g, ph, call_block)
            self.depth -= 1
            self.line("res = 0")
            self.for_line(f"while st[{Y.TURN_OVER}] == 0:")
            self.depth += 1
            self.decide(ph.turn, call_block)
            self.depth -= 1
            self.end_of_turn(g, ph, call_block, f"st[{AG + A_BEGUN}]")
            self.depth -= 1
            call_block(ph.end)
            self.line(f"{RND} += 1")
            self.depth -= 1
            self.depth -= 1
        self.line("FIN(st)")
        produced, self.lines, self.depth = self.lines, saved, 0
        self.defs.append("@njit(cache=True)\ndef play(st):\n" + "\n".join(produced) + "\n")

    # -- the module ----------------------------------------------------------------------------------
    def _unseen_action(self, a: ir.Action) -> bool:
        """Whether another seat may not see this action chosen (it shows a card, or is `secret: true`): a kept
        mcts tree does not follow it (agents/search.py's `_seen_by`)."""
        return a.name in self.secrets.secret_actions or any(
            (p.ty if p.ty not in _LISTS else ELEMENT[p.ty]) is T.CARD for p in a.params)

    def module(self) -> str:
        if self.heuristic is not None:
            try:
                self.function_def("HV", "st", self.heuristic, expr=True)
            except ValueError:  # a zone sum no rule keeps (emit.py keeps only the rules' own)
                raise Unsupported("a heuristic summing a zone no rule sums is not yet on the kernel",
                                  getattr(self.heuristic, "at", None)) from None
        text = super().module()
        Yl = self.Y
        nz = Yl.n_zones
        unseen = ", ".join("[" + ", ".join("1" if z in set(row) else "0" for z in range(nz)) + "]"
                           for row in self.unseen)
        homes = ", ".join(str(h) for h in self.homes)
        most = max([len(ph.turn.actions) for ph in self.g.phases] + [1])
        npar = ", ".join(str(len(ph.turn.actions[a].params) if a < len(ph.turn.actions) else 0)
                         for ph in self.g.phases for a in range(most)) or "0"
        unseen_move = ", ".join(str(int(a < len(ph.turn.actions) and self._unseen_action(ph.turn.actions[a])))
                                for ph in self.g.phases for a in range(most)) or "0"
        consts = "\n".join([
            f"AG = {self.AG}",
            f"WK = {self.WK}",
            f"WKC = {self.WKC}",
            *(f"{name} = {v}" for name, v in (
                ("A_MODE", A_MODE), ("A_PAUSED", A_PAUSED), ("A_PH", A_PH), ("A_RND", A_RND), ("A_RES", A_RES),
                ("A_WHO", A_WHO), ("A_NPRE", A_NPRE), ("A_KPRE", A_KPRE), ("A_PEND", A_PEND), ("A_ME", A_ME),
                ("A_TURN0", A_TURN0), ("A_FK", A_FK), ("A_SUB", A_SUB), ("A_FORCE", A_FORCE), ("A_DEAL", A_DEAL),
                ("A_SEED", A_SEED), ("A_SNAPK", A_SNAPK), ("A_SAVECC", A_SAVECC), ("A_HALT", A_HALT),
                ("A_NOPT", A_NOPT), ("A_KIND", A_KIND), ("A_ARNG", A_ARNG), ("A_US", A_US), ("A_PRE", A_PRE),
                ("PRE_CAP", PRE_CAP), ("A_SNAP", self.snap_at), ("FOLLOW_UP", FOLLOW_UP), ("A_BEGUN", A_BEGUN),
                ("HEUR", 1 if self.heuristic is not None else 0), ("A_REW", A_REW), ("NODE", NODE),
                ("A_LEFT", A_LEFT), ("A_PLAYED", A_PLAYED), ("A_SITE", A_SITE), ("A_NODE", A_NODE), ("A_NN", A_NN),
                ("A_NPATH", A_NPATH), ("A_CAP", A_CAP), ("A_JUDGED", A_JUDGED), ("A_LIMIT", A_LIMIT),
                ("A_MAXP", A_MAXP), ("A_TIED", A_TIED), ("A_TAU", A_TAU), ("A_C", A_C), ("A_DEPTH", A_DEPTH),
                ("WTS", self.wts), ("NPVW", self.npvw), ("CH", self.ch), ("TREE", self.RCH),
                ("MAXOPT", MAX_OPTIONS), ("DB", self.db), ("A_DCACHE", A_DCACHE), ("A_KEEPDEAL", A_KEEPDEAL),
                ("HOMES", int(any(h >= 0 for h in self.homes))), ("MV", self.mv), ("MOVES_KEPT", MOVES_KEPT),
                ("A_NMOV", A_NMOV), ("A_OWNER", A_OWNER), ("A_ROOT", A_ROOT), ("A_SECRET", A_SECRET),
                ("TIMED_NODES", TIMED_NODES), ("A_TOG", A_TOG), ("A_RDR", A_RDR), ("GV", Yl.gv), ("SH", self.sh),
                ("SHS", self.shs))),
            self.secrets.constants(),
            "REWARD_ONE = 1073741824.0",
            f"NPAR = np.array([{npar}], dtype=np.int64).reshape({len(self.g.phases)}, {most})",
            f"UNSEEN_MOVE = np.array([{unseen_move}], dtype=np.int64).reshape({len(self.g.phases)}, {most})",
            "WINV = 1000000.0",
            f"UNSEEN = np.array([{unseen}], dtype=np.int64).reshape({len(self.unseen)}, {nz})",
            f"HOME = np.array([{homes}], dtype=np.int64)",
        ])
        if self.heuristic is None:
            consts += "\n\n@njit(cache=True)\ndef HV(st):\n    return 0\n"
        text = text.replace(_DRIVER, "")
        return text + "\n" + consts + "\n" + _DEAL_RUNTIME + _AGENT_RUNTIME + _AGENT_DRIVER


from .emit import _LISTS, QUIET_ROUNDS  # noqa: E402
