"""The pending decision of a game: its options and their labels, and taking one.

Owns `Decisions`, the part of `State` (engine.py) that asks (`ask`), tells
what is asked (`decision`, `to_move`, `option_count`, `labels`, each label
filled in and, while marking, with its cards marked for redaction), and
takes an option (`apply`, `take`), logging the choice; and `numbered`, the
labels made unique as the faces show them.
"""
from __future__ import annotations

from typing import Any

from ..lang.builtins import RuleError
from ..compile.compiler import ACTION, OPTION, SUBSET, VALUE
from ..lang.kinds import ELEMENT, T
from ..lang.limits import MAX_OPTIONS
from .status import Decision, IllegalChoice, Stalled, Status


def numbered(labels: list[str]) -> list[str]:
    """The labels made unique: a repeated label gets ' (2)', ' (3)' ..."""
    if len(set(labels)) == len(labels):  # the common case: nothing to number
        return labels
    seen: dict[str, int] = {}
    out = []
    for lab in labels:
        seen[lab] = seen.get(lab, 0) + 1
        out.append(lab if seen[lab] == 1 else f"{lab} ({seen[lab]})")
    return out


class Decisions:
    """Asking, labelling and taking a decision (a part of State)."""
    __slots__ = ()

    # -- protocol --------------------------------------------------------------
    @property
    def to_move(self) -> int:
        """The seat (from 0) that must choose now; -1 when the game is over. Formats nothing."""
        return self.pplayer if self.popts is not None else -1

    @property
    def option_count(self) -> int:
        """How many options the pending decision has (`apply(i)` takes 0 to `option_count - 1`); 0 when
        the game is over. Formats no label: the fast way to count options in a loop."""
        opts = self.popts
        return len(opts) if opts is not None else 0

    def label(self, i: int) -> str:
        """The readable label of option `i` of the pending decision (the same text as `decision().labels[i]`)."""
        labels = self.labels()
        if not 0 <= i < len(labels):
            raise IllegalChoice(f"option {i!r} does not exist: there are {len(labels)} options")
        return labels[i]

    def decision(self) -> Decision | None:
        """The pending decision with every option's label, or None when the game is over.

        Formatting labels costs more than many a rule: a loop that only picks uses `option_count` and
        `to_move` instead, and reads `label(i)` when it needs one."""
        if self.status is not Status.RUNNING:
            return None
        kinds = {ACTION: "action", VALUE: "value", OPTION: "option", SUBSET: "subset"}
        return Decision(self.pplayer, kinds[self.pkind], self._prompt(), self.labels())

    def labels(self) -> list[str]:
        """Readable labels of the pending options, unique (a repeated label gets ' (2)', ' (3)' ...)."""
        return numbered(self._labels())

    def _labels(self) -> list[str]:
        # Showing the options is not playing: the work their labels' expressions do is not charged to
        # the game (a logged game and an unlogged one, a watched one and a bot's, use the same steps).
        steps, work = self.steps, self.work
        try:
            return self._labels_charged()
        finally:
            self.steps, self.work = steps, work

    def marked_label(self, i: int) -> str:
        """Option `i`'s label with every card it shows marked with its id (redact.py reads who may see
        them): what narration logs of a choice, and what an agent may read of another seat's."""
        self.marking = True
        try:
            return self._labels()[i]
        finally:
            self.marking = False

    def _labels_charged(self) -> list[str]:
        g = self.g
        opts, meta, kind = self.popts or [], self.pmeta, self.pkind
        if kind == ACTION:
            out = []
            for o in opts:
                if isinstance(o, int):
                    out.append(meta[o][1])
                else:
                    ai, params = o
                    tpl = g.label_tpl.get(meta[ai][0]) if g.label_tpl else None
                    if tpl is not None:
                        out.append(self._fill_label(meta[ai][0], tpl, params))
                        continue
                    shown = ", ".join(self._show_param(meta[ai][0], k, x) for k, x in enumerate(params))
                    out.append(f"{meta[ai][1]}: {shown}")
            return out
        if kind == OPTION:
            fr = self.stack[-1]
            out = []
            for entry, x in opts:
                slot, _coll, _cond, label, _start = entry
                if slot >= 0:
                    fr[2][slot] = x
                out.append(label(self, fr[2]))
            return out
        slot, _prompt, ty = meta[:3]
        el = T.CARDS if kind == SUBSET else ELEMENT.get(ty, T.STR)
        return [self.card_text(x, el) for x in opts]

    def _fill_label(self, action_name: str, tpl, params: list) -> str:
        """An action label with `{parameter}` holes, filled (lang/labels.py); unnamed parameters follow it."""
        out = []
        for part in tpl.parts:
            if type(part) is str:
                out.append(part)
            elif part.prop is None:
                out.append(self._show_param(action_name, part.param, params[part.param]))
            else:
                x = params[part.param]
                value = str(self.g.props[part.prop][x])
                if self.marking:  # the property of a card some seat may not see is as secret as the card
                    from .redact import mark
                    value = mark(x, value)
                out.append(value)
        text = "".join(out)
        if tpl.rest:
            text += ": " + ", ".join(self._show_param(action_name, k, params[k]) for k in tpl.rest)
        return text

    def _show_param(self, action_name: str, k: int, x: Any) -> str:
        g = self.g
        el = g.param_show.get((action_name, k))
        if el is None:  # once per game, action and parameter: search agents label options all the time
            code = list(g.spec.actions[action_name].params.values())[k]
            ty = code.ast.ty if code.ast is not None else T.ANY
            el = ELEMENT.get(ty, T.STR)
            g.param_show[(action_name, k)] = el
        return self.card_text(x, el)

    def _prompt(self) -> str:
        if self.pkind == ACTION:
            return "your action"
        prompt = self.pmeta[1]
        if not prompt:
            return "choose"
        steps, work = self.steps, self.work  # showing is not playing: see _labels
        try:
            return prompt(self, self.stack[-1][2])
        finally:
            self.steps, self.work = steps, work

    def apply(self, i: int) -> None:
        """Take option `i` (from 0) of the pending decision and run to the next decision or the end.

        Raises:
            IllegalChoice: the game is over, or option `i` does not exist.
            ChanceError: a chance script ran out or did not fit (the game has stopped as `error`)."""
        opts = self.popts
        if opts is None:
            raise IllegalChoice("the game is over" if self.status is not Status.RUNNING else "nothing to choose")
        if type(i) is not int or not 0 <= i < len(opts):
            raise IllegalChoice(f"option {i!r} does not exist: there are {len(opts)} options (0-{len(opts) - 1})")
        self.take(i)
        self.run()

    def take(self, i: int) -> None:
        """Record option `i` of the pending decision and set up what it does (without running it)."""
        opts = self.popts
        self.choices.append(i)
        self.decisions += 1
        if self.log is not None:
            self.log_choice(i)
        kind = self.pkind
        o = opts[i]
        self.popts = None
        if kind == ACTION:
            if type(o) is int:
                prog = self.pmeta[o][3]
                self.stack.append([prog, 0, [None] * prog.n_locals])
            else:
                ai, params = o
                prog = self.pmeta[ai][3]
                self.stack.append([prog, 0, [*params] + [None] * (prog.n_locals - len(params))])
        elif kind == OPTION:
            fr = self.stack[-1]
            entry, x = o
            if entry[0] >= 0:
                fr[2][entry[0]] = x
            fr[1] = entry[4]
        else:
            self.stack[-1][2][self.pmeta[0]] = o

    def log_choice(self, i: int) -> None:
        from .redact import secret_spans
        label = self.labels()[i]
        if self.pkind == VALUE and len(self.pmeta) > 3 or self.pkind == ACTION and self._secret_action(i):
            # a simultaneous choice, or a secret action's (lang/hidden.py): nobody else sees it
            self.event("choice", player=self.pplayer, choice=label, index=i, of=len(self.popts), sealed=True)
            self.moved = {}
            self.chosen = None  # a new step: an earlier choice is no longer widened
            return
        marked = self.marked_label(i)
        cards: list[int] = []
        hidden = secret_spans(self, marked, cards)
        self.event("choice", player=self.pplayer, choice=label, index=i, of=len(self.popts),
                   **({"hidden": hidden} if hidden else {}))
        self.chosen = (self.log[-1], cards) if hidden else None  # widened as its cards move (redact.widen)
        self.moved = {}  # a new step: what a seat saw move before this choice is behind it

    def _secret_action(self, i: int) -> bool:
        o = self.popts[i]
        name = self.pmeta[o if isinstance(o, int) else o[0]][0]
        return self.g.spec.actions[name].secret

    # -- called by compiled ops --------------------------------------------------
    def ask(self, kind: int, player: int, options: list, meta: Any) -> bool:
        g = self.g
        if g.end_always and g.end_when is not None and g.end_when(self, [None] * g.scratch):
            return self.finish()
        if not options:
            raise Stalled(f"P{player + 1} must choose but has no legal option")
        if len(options) > MAX_OPTIONS:
            raise RuleError(f"a decision with {len(options):,} options (the limit is {MAX_OPTIONS:,})")
        self.steps += 1  # tick(), inline: this runs at every decision
        if self.steps > g.budget:
            self.steps -= 1
            self.tick()  # raises, with steps at budget + 1 like every other way to run out
        self.quiet = 0
        self.pkind, self.pplayer, self.popts, self.pmeta = kind, player, options, meta
        if self.auto is None:
            return True
        self.take(self.auto[player].pick(self))  # the seat's agent decides here and now
        return None
