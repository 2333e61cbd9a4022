"""Generated Python for whole programs and the game's flow: resumable state machines and the turn cycle.

Owns `FlowGen`, the part of the code generator (codegen.PyGen) that turns a
lowered block (lower/ir.py) holding decisions into a resumable program
(`program`, the `p_*` statements: a decision can stand anywhere, its frame
saved and resumed),
and each phase's turn cycle with its action decision (`flow`), where agents
that decide inside the run (State.auto) take their choice at once; and the
line-level helpers those programs are built with (labels, jumps, ticks).
"""
from __future__ import annotations

import re
from typing import Any, Callable

from ..lang.kinds import T
from ..lang.limits import MAX_CALL_DEPTH, MAX_OPTIONS
from ..lower import ir
from .support import _nc


class Together:
    """Where a `choose together` keeps its state in a frame's locals, and how to list a player's options:
    what determinization needs to re-draw the choices a player has not seen."""
    __slots__ = ("choice", "player", "players", "index", "picks", "source", "ty")

    def __init__(self, choice, player, players, index, picks, source, ty):
        self.choice, self.player, self.players, self.index, self.picks = choice, player, players, index, picks
        self.source, self.ty = source, ty

    def options(self, st, L) -> list:
        v = self.source(st, L)
        return list(st.zones[v]) if self.ty is T.ZONE else list(v)


def _pure_jump(block: list[str]) -> int | None:
    """The label a part jumps to when that is all it does."""
    if len(block) == 2 and block[1] == "continue" and block[0].startswith("pc = \u00a7"):
        return int(block[0][6:-1])
    return None


_JUMP = re.compile(r"^\s*(?:pc|fr\[1\]) = (\d+)$")  # where a line of a resolved part sends `pc`


_MAX_ELSE_NESTING = 20  # well inside Python's limits on nested blocks, whatever the part is nested in


def _skip_by_else(part: list[str], k: int, depth: int = 0) -> list[str]:
    """Part `k` without `continue` for its forward jumps: they fall through the `if pc == ...` tests below.

    `if c: pc = N; continue; rest` becomes `if c: pc = N else: rest`, so the
    rest of the part is skipped without going round the dispatch loop again.
    """
    out: list[str] = []
    for i, ln in enumerate(part):
        if (depth < _MAX_ELSE_NESTING and ln.startswith("if ") and ln.endswith(":") and i + 2 < len(part)
                and part[i + 1].startswith("    pc = ") and part[i + 2] == "    continue"
                and part[i + 1][9:].isdigit() and int(part[i + 1][9:]) > k):
            rest = _skip_by_else(part[i + 3:], k, depth + 1)
            return out + [ln, part[i + 1], "else:"] + ["    " + x for x in rest or ["pass"]]
        out.append(ln)
    if (len(out) >= 2 and out[-1] == "continue" and out[-2].startswith("pc = ") and out[-2][5:].isdigit()
            and int(out[-2][5:]) > k):
        out.pop()
    return out


def _resolve_labels(line: str, labels: dict[int, int]) -> str:
    parts = line.split("\u00a7")
    for i in range(1, len(parts), 2):
        parts[i] = str(labels[int(parts[i])])
    return "".join(parts)


# Parts of the state whose list object never changes while a game runs (only their items do): a
# generated function reads each once, into a local, when it reads it at all.
_STATE_LISTS = (("st.zones", "Z_"), ("st.where", "W_"), ("st.gvars", "G_"), ("st.pvars", "P_"), ("st.zsum", "S_"))


def _alias_state(src: str, cur: bool = True) -> str:
    """`src` with the state lists read once at its top; with `cur`, the current player too (only the flow
    moves the turn on, so inside a program `st.cur` never changes)."""
    head, _, body = src.partition("\n")
    aliases = []
    for attr, alias in _STATE_LISTS + ((("st.cur", "C_"),) if cur else ()):
        if attr in body:
            body = body.replace(attr, alias)
            aliases.append(f"    {alias} = {attr}\n")
    return head + "\n" + "".join(aliases) + body


def _tick(budget: str = "st.g.budget", depth: bool = False) -> list[str]:
    """State.tick inline (one step of the budget; with `depth`, the call depth too): it is called only to raise."""
    test = f"st.steps >= {budget}" + (f" or len(st.stack) > {int(MAX_CALL_DEPTH)}" if depth else "")
    return [f"if {test}:", "    st.tick()  # raises", "st.steps += 1"]


def _inline_ticks(part: list[str]) -> list[str]:
    """Every `st.tick()` line of a part inline."""
    out = []
    for ln in part:
        if ln.strip() == "st.tick()":
            pad = ln[:len(ln) - len(ln.lstrip())]
            out += [pad + t for t in _tick(depth=True)]
        else:
            out.append(ln)
    return out


def _pending(kind: int, who: str, opts: str, meta: str, budget: str) -> list[str]:
    """State.ask, inline: one step of the budget, then the decision is pending."""
    return [*_tick(budget), "st.quiet = 0", f"st.pkind = {int(kind)}", f"st.pplayer = {who}", f"st.popts = {opts}",
            f"st.pmeta = {meta}"]


def _agent_picks(who: str) -> list[str]:
    """The start of State.take, inline, for an agent that decides at once (State.auto): it picks `i`."""
    return [f"i = st.auto[{who}].pick(st)", "st.choices.append(i)", "st.decisions += 1",
            "if st.log is not None:", "    st.log_choice(i)", "st.popts = None"]


class FlowGen:
    """Programs with decisions in them, and the flow of turns and phases (a part of PyGen)."""

    # -- resumable programs ----------------------------------------------------------------
    def program(self, name: str, stmts: list, code: Any = None) -> Callable:
        """A block as one resumable function `fn(st, fr)`.

        Statements that may pause (a `choose`, a call of a procedure that
        chooses) split the block into numbered parts; `fr[1]` (the frame's pc) says which part
        to run next, so the function can return at a decision and be called
        again when the decision is taken. Runs of statements that never pause
        are plain Python inside one part.
        """
        self._blocks: list[list[str]] = [[]]
        self.together: list[Together] = []  # this program's simultaneous choices
        self._labels: dict[int, int] = {}
        self._patch: list[tuple[list, int]] = []  # option entries whose start label needs its part number
        self.codes.append(code)
        self._blocks[-1].extend(self.hit("rule", name, None))
        self._resumable = True
        try:
            self._emit(stmts)
        finally:
            self._resumable = False
        self.codes.pop()
        self._jump_end_of_program()
        fname = self.fresh("R_")
        # Jump threading: a part that only jumps elsewhere is skipped by every jump to it.
        target = dict(self._labels)
        for lab, k in self._labels.items():
            seen = set()
            while self._blocks[k][:1] and _pure_jump(self._blocks[k]) and k not in seen:
                seen.add(k)
                k = self._labels[_pure_jump(self._blocks[k])]
            target[lab] = k
        ends = {k for k, blk in enumerate(self._blocks) if blk == ["st.stack.pop()", "return None"]}
        resolved = []
        for k, blk in enumerate(self._blocks):
            out = [_resolve_labels(ln, target) for ln in blk]
            # Tail call: a call whose return would only end this program replaces this program's frame.
            if (len(out) >= 10 and out[-10].endswith("# direct call") and out[-7].startswith("fr[1] = ")
                    and int(out[-7][8:]) in ends and out[-2:] == [f"pc = {out[-7][8:]}", "continue"]):
                out[-9:] = ["st.stack[-1] = f_", "st.tick()", f"return {out[-6][3:-1]}"]
            if (len(out) >= 4 and out[-4].endswith("# call") and out[-2].startswith("fr[1] = ")
                    and int(out[-2][8:]) in ends and out[-1] == "return None"):
                out[-4] = out[-4].replace("st.stack.append(", "st.stack[-1] = (", 1)
                del out[-2]
            # A part that ends by jumping forward falls through the `if pc == ...` tests below it.
            resolved.append(_skip_by_else(out, k))
        for entry, lab in self._patch:
            entry[4] = target[lab]
        resolved = [_inline_ticks(blk) for blk in resolved]
        # A part runs only when `pc` names it: at the start (0), after a jump or when resumed.
        entered, todo, back = set(), [0] + [entry[4] for entry, _lab in self._patch], False
        while todo:
            k = todo.pop()
            if k not in entered:
                entered.add(k)
                for ln in resolved[k]:
                    for m in _JUMP.findall(ln):
                        todo.append(int(m))
                        back = back or int(m) == 0
        if entered == {0} and not back:  # straight-line code: no dispatch loop
            body = "".join(f"    {ln}\n" for ln in resolved[0])
            src = f"def {fname}(st, fr):\n    L = fr[2]\n{body}"
        else:
            src = f"def {fname}(st, fr):\n    L = fr[2]\n    pc = fr[1]\n    while True:\n"
            for k, blk in enumerate(resolved):
                if k in entered:
                    src += f"        if pc == {k}:\n"
                    src += "".join(f"            {ln}\n" for ln in blk)
        return self.define(fname, _alias_state(src), code)

    def plain(self, name: str, stmts: list, code: Any = None) -> Callable:
        """A block that can never pause as a plain function `fn(st, L)`: no frame, no resume point.

        `end turn` and `end game` return at once, as in a resumable program."""
        self.codes.append(code)
        self._resumable = True
        try:
            body = self.hit("rule", name, None) + [ln for s in stmts for ln in self.stmt(s)]
        finally:
            self._resumable = False
            self.codes.pop()
        fname = self.fresh("A_")
        src = f"def {fname}(st, L):\n" + "".join(f"    {ln}\n" for ln in _inline_ticks(body) or ["pass"])
        return self.define(fname, _alias_state(src), code)

    def _label(self) -> int:
        self._n += 1
        return self._n

    def _place(self, lab: int) -> None:
        """Start a new part here; falling into it from the previous part jumps."""
        cur = self._blocks[-1]
        if not cur or not (cur[-1].startswith("continue") or cur[-1].startswith("return")
                           or cur[-1].startswith("raise")):
            cur.extend([f"pc = \u00a7{lab}\u00a7", "continue"])
        self._blocks.append([])
        self._labels[lab] = len(self._blocks) - 1

    def _goto(self, lab: int) -> list[str]:
        return [f"pc = \u00a7{lab}\u00a7", "continue"]

    def _jump_end_of_program(self) -> None:
        self._blocks[-1].extend(["st.stack.pop()", "return None"])

    def _emit(self, stmts: list) -> None:
        run: list = []
        for s in stmts:
            if self.comp.can_pause(s):
                self._flush(run)
                run = []
                self._blocks[-1].extend(self.mark(s))
                getattr(self, "p_" + type(s).__name__)(s)
            else:
                run.append(s)
        self._flush(run)

    def _flush(self, run: list) -> None:
        for s in run:
            self._blocks[-1].extend(self.stmt(s))

    def p_If(self, s: ir.If) -> None:
        end = self._label()
        for cond_e, body in s.branches:
            c = self.fold(cond_e)
            if c is not _nc() and not c:
                continue
            if c is not _nc():
                self._emit(body)
                self._blocks[-1].extend(self._goto(end))
                self._place(end)
                return
            nxt = self._label()
            self._blocks[-1].extend([f"if not {self.expr(cond_e)}:", f"    pc = \u00a7{nxt}\u00a7", "    continue"])
            self._blocks[-1].extend(self.hit("branch", "if", cond_e))
            with self._guarded(cond_e):
                self._emit(body)
            self._blocks[-1].extend(self._goto(end))
            self._place(nxt)
        if s.orelse:
            self._blocks[-1].extend(self.hit("branch", "else", s))
            with self._guarded(s):
                self._emit(s.orelse)
        self._place(end)

    def p_ForEach(self, s: ir.ForEach) -> None:
        v, lst, idx = s.slot, s.slot + 1, s.slot + 2
        head, end = self._label(), self._label()
        self._blocks[-1].extend([f"L[{lst}] = _each(st, {self.coll(s.coll)})", f"L[{idx}] = 0"])
        self._place(head)
        self._blocks[-1].extend([f"if L[{idx}] >= len(L[{lst}]):", f"    pc = \u00a7{end}\u00a7", "    continue",
                                 f"L[{v}] = L[{lst}][L[{idx}]]", f"L[{idx}] += 1"])
        self._emit(s.body)
        self._blocks[-1].extend(self._goto(head))
        self._place(end)

    def p_Repeat(self, s: ir.Repeat) -> None:
        head, end = self._label(), self._label()
        self._blocks[-1].append(f"L[{s.slot}] = st.spend({self.expr(s.count)})")
        self._place(head)
        self._blocks[-1].extend([f"if L[{s.slot}] <= 0:", f"    pc = \u00a7{end}\u00a7", "    continue",
                                 f"L[{s.slot}] -= 1"])
        self._emit(s.body)
        self._blocks[-1].extend(self._goto(head))
        self._place(end)

    def p_While(self, s: ir.While) -> None:
        head, end = self._label(), self._label()
        self._place(head)
        self._blocks[-1].extend([f"if not {self.expr(s.cond)}:", f"    pc = \u00a7{end}\u00a7", "    continue"])
        self._emit(s.body)
        self._blocks[-1].extend(["st.tick()"] + self._goto(head))
        self._place(end)

    def _pause(self, call: str) -> None:
        """Save where to resume, then hand control back to the engine."""
        resume = self._label()
        self._blocks[-1].extend([f"fr[1] = \u00a7{resume}\u00a7", f"return {call}"])
        self._place(resume)

    def _ask(self, call: str) -> None:
        """Pause for a decision; when an agent took it at once (State.auto), go on here without a return."""
        resume = self._label()
        self._blocks[-1].extend([f"fr[1] = \u00a7{resume}\u00a7", f"if {call}:", "    return True",
                                 "if st.stack[-1] is not fr:", "    return None", "pc = fr[1]", "continue"])
        self._place(resume)

    def p_Call(self, s: ir.Call) -> None:
        prog = self.comp.procs[s.proc]
        args = self.args(s.args, self.comp.param_types(s.proc))
        locs = f"[None] * {self.k(prog)}.n_locals"
        if args:
            locs = f"[{', '.join(args)}] + [None] * ({self.k(prog)}.n_locals - {len(args)})"
        frame = f"[{self.k(prog)}, 0, {locs}]"
        if s.proc in self.comp.recursive:  # through the engine's loop: Python's stack stays flat
            self._blocks[-1].extend([f"st.stack.append({frame})  # call", "st.tick()"])
            self._pause("None")
            return
        # Called at once; back to the engine only if it pauses, or left something to run on the stack.
        resume = self._label()
        self._blocks[-1].extend([f"f_ = {frame}  # direct call", "st.stack.append(f_)", "st.tick()",
                                 f"fr[1] = \u00a7{resume}\u00a7", f"if {self.k(prog)}.fn(st, f_):", "    return True",
                                 "if st.stack[-1] is not fr:", "    return None"])
        self._place(resume)

    def p_Move(self, s: ir.Move) -> None:
        self._blocks[-1].extend(self.s_Move(s))
        self._pause("None")  # triggers fired by the move run now, before the next statement

    def _who(self, by: ir.X | None) -> str:
        return "st.cur" if by is None else self.expr(by)

    def p_ChooseValue(self, s: ir.ChooseValue) -> None:
        prompt = self.expression(s.prompt) if s.prompt else None
        meta = self.k((s.slot, prompt, s.source.ty))
        opts = f"list({self.coll(s.source)})"
        if s.source.ty in (T.ZONE, T.CARDS):  # identical cards make one option (interchange.py)
            opts = f"{self.k(self.comp.interchange())}.values(st, {opts})"
        self._ask(f"st.ask(1, {self._who(s.by)}, {opts}, {meta})")

    def p_ChooseTogether(self, s: ir.ChooseTogether) -> None:
        """Each player chooses in turn, none seeing the others' choices (kept in a hidden local until all
        have chosen, a new list at each choice so copies of the state never share it); then the body
        runs once per player. Determinization re-draws the choices of the others (`Together`)."""
        c, p, lst, idx, picks = s.slot, s.slot + 1, s.slot + 2, s.slot + 3, s.slot + 4
        head, reveal = self._label(), self._label()
        self._blocks[-1].extend([f"L[{lst}] = _each(st, {self.coll(s.players)})", f"L[{idx}] = 0", f"L[{picks}] = ()"])
        self._place(head)
        prompt = self.expression(s.prompt) if s.prompt else None
        meta = self.k((c, prompt, s.source.ty, "sealed"))  # sealed: narration does not show the choice
        self._blocks[-1].extend([f"if L[{idx}] >= len(L[{lst}]):", f"    pc = \u00a7{reveal}\u00a7", "    continue",
                                 f"L[{p}] = L[{lst}][L[{idx}]]"])
        self._ask(f"st.ask(1, L[{p}], list({self.coll(s.source)}), {meta})")
        self._blocks[-1].extend([f"L[{picks}] = L[{picks}] + (L[{c}],)", f"L[{idx}] += 1"] + self._goto(head))
        self._place(reveal)
        k = self.fresh("k")
        self._blocks[-1].extend([f"for {k} in range(len(L[{lst}])):", f"    L[{p}] = L[{lst}][{k}]",
                                 f"    L[{c}] = L[{picks}][{k}]"] + self.sub(s.body) + [f"L[{picks}] = ()"])
        self.together.append(Together(c, p, lst, idx, picks, self.expression(s.source), s.source.ty))

    def p_ChooseSubset(self, s: ir.ChooseSubset) -> None:
        prompt = self.expression(s.prompt) if s.prompt else None
        meta = self.k((s.slot, prompt, T.CARDS))
        # Every subset of the source that passes the test (a function of its own, run once per subset).
        test, merge = self.expression(s.cond).__name__, f"{self.k(self.comp.interchange())}.subsets"
        finder = f"_subsets(st, L, {int(s.slot)}, list({self.coll(s.source)}), {test}, {merge})"
        self._ask(f"st.ask(3, {self._who(s.by)}, {finder}, {meta})")

    def p_ChooseOption(self, s: ir.ChooseOption) -> None:
        prompt = self.expression(s.prompt) if s.prompt else None
        end = self._label()
        starts = []
        find = ["o_ = []"]  # the options open now, with their bound element
        for opt in s.options:
            c = self.fold(opt.cond) if opt.cond is not None else True
            if c is not _nc() and not c:
                continue
            entry = [opt.slot if opt.slot is not None else -1, None, None, self.expression(opt.label), -1]
            start = self._label()
            starts.append((start, opt))
            self._patch.append((entry, start))
            pad = ""
            if opt.slot is not None:
                head = self._loop("x_", opt.coll)
                find += head
                self.local_names.append({opt.slot: "x_"})
                pad = "    " * len(head)
            if c is _nc():
                find.append(f"{pad}if {self.expr(opt.cond)}:")
                pad += "    "
            if opt.slot is not None:
                self.local_names.pop()
            find.append(f"{pad}o_.append(({self.k(entry)}, {'x_' if opt.slot is not None else 'None'}))")
        meta = self.k((None, prompt, None))
        self._blocks[-1].extend(find)
        if self.comp.ir.end_always and self.comp.ir.end_when is not None:
            self._ask(f"st.ask(2, {self._who(s.by)}, o_, {meta})")
        else:
            # State.ask and State.take inline when the seat's agent decides at once: its option's part runs next.
            resume = self._label()
            self._blocks[-1].extend([
                f"w_ = {self._who(s.by)}", f"fr[1] = \u00a7{resume}\u00a7",
                f"if st.auto is None or not o_ or len(o_) > {int(MAX_OPTIONS)}:",
                f"    if st.ask(2, w_, o_, {meta}):", "        return True",
                "    if st.stack[-1] is not fr:", "        return None", "    pc = fr[1]", "    continue",
                *_pending(2, "w_", "o_", meta, "st.g.budget"), *_agent_picks("w_"),
                "e_, x_ = o_[i]", "if e_[0] >= 0:", "    L[e_[0]] = x_", "pc = e_[4]", "continue"])
            self._place(resume)
        self._blocks[-1].extend(self._goto(end))  # never reached: apply() sets the part
        for start, opt in starts:
            self._place(start)
            self._blocks[-1].extend(self.hit("option", "option", opt))
            self._emit(opt.body)
            self._blocks[-1].extend(self._goto(end))
        self._place(end)

    def flow(self, ops: list, cycles: list, budget: int) -> Callable:
        """The game's flow as one function: each phase's turn cycle inline, the rest as calls of `ops`.

        A turn cycle has three entry points (its `Cycle` indices into `ops`):
        `start` begins a turn and runs its start effects, `loop` offers the
        turn's actions (and comes back there after each one), `end_at` ends the
        turn and begins the next one, unless the game or the phase ends.
        """
        lines = ["pc = fr[1]"]
        for cy in cycles:
            lines.append(f"if {int(cy.start)} <= pc <= {int(cy.end_at)}:")
            lines += ["    " + ln for ln in self._cycle(cy, budget)]
        name = self.fresh("FLOW_")
        # The other steps (setup, phase starts and ends, round counting) one after another in this call, as
        # long as none of them pauses, ends the game or leaves a frame to run; a turn cycle is entered anew.
        cycle = " or ".join(f"{int(cy.start)} <= pc <= {int(cy.end_at)}" for cy in cycles)
        lines += ["while True:", f"    op = {self.k(ops)}[pc]", "    fr[1] = pc + 1", "    r = op(st, fr)",
                  "    if r is not None or st.stack[-1] is not fr:", "        return r", "    pc = fr[1]",
                  f"    if {cycle}:", f"        return {name}(st, fr)"]
        return self.define(name, _alias_state(f"def {name}(st, fr):\n" + "".join(f"    {ln}\n" for ln in lines),
                                              cur=False))

    def _cycle(self, cy, budget: int) -> list[str]:
        loop, end_at, start = int(cy.loop), int(cy.end_at), int(cy.start)
        out = [f"L = {self.k(cy.scratch)}", "while True:", f"    if pc == {loop}:", "        if st.turn_over:"]
        out += [f"            pc = {end_at}"]
        if cy.turn_end is not None:  # the turn's end effects, then `end_at`
            out += ["            " + ln for ln in self._run_now(cy.turn_end, end_at)]
        out += ["        else:"]
        out += ["            " + ln for ln in self._decide(cy, budget)]
        out += [f"    if pc == {end_at}:", "        st.in_turn = False"]
        if cy.end_when is not None:
            out += [f"        if {self._cond(cy.end_when)}:", "            return st.finish()"]
        out += ["        st.cur = st.pass_turn()" if self.comp.turn_order else "        st.cur = (st.cur + 1) % st.n"]
        if cy.until is not None:
            out += [f"        if {self._cond(cy.until)}:", f"            fr[1] = {int(cy.done)}", "            return None"]
        elif cy.round_slot >= 0:  # a phase without `until`: its round ends when every player has had a turn
            out += [f"        if st.turn - fr[2][{int(cy.round_slot)}] >= st.n:", f"            fr[1] = {int(cy.done)}",
                    "            return None"]
        out += [f"        pc = {start}"]
        # Begin a turn: the step budget, stall detection, fresh turn variables.
        out += [f"    if pc == {start}:"]
        out += ["        if st.halt:", f"            fr[1] = {start}", "            return True"]  # a search's copy: judged here
        if self.comp.turn_order:  # a seat chosen outside a turn (setup, a phase's start or end) plays now
            out += ["        if st.nxt >= 0:", "            st.cur = st.nxt", "            st.nxt = -1"]
        out += ["        st.turn += 1", *(["        POS[0] = None"] if self.locate else []),
                *("        " + ln for ln in _tick(str(int(budget)))),
                "        st.quiet += 1",
                f"        if st.quiet > {int(cy.quiet_rounds)} * st.n:", f"            {self.k(cy.stalled)}(st)",
                f"        st.tvars = {self.k(cy.tvar_start)}[:]", "        st.turn_over = False", "        st.in_turn = True",
                "        if st.log is not None:", "            st.event('turn', turn=st.turn, player=st.cur)",
                f"        pc = {loop}"]
        if cy.turn_start is not None:
            out += ["        " + ln for ln in self._run_now(cy.turn_start, loop)]
        return out

    def _run_now(self, prog, resume: int) -> list[str]:
        """Run a program at once; back to the engine only if it pauses or left a call to run."""
        return [f"fr[1] = {int(resume)}", f"p = {self.k(prog)}", f"a = [None] * {int(prog.n_locals)}",
                *self._call_now("p", "a", f"pc = {int(resume)}")]

    @staticmethod
    def _call_now(p: str, a: str, after: str) -> list[str]:
        """Run program `p` with locals `a` from the flow: without a frame when it can never pause."""
        return [f"if {p}.plain is not None:",
                "    try:", f"        if {p}.plain(st, {a}):", "            return True",
                "    except Exception:",  # the engine names the rule that failed: it must be on the stack
                f"        st.stack.append([{p}, 0, {a}])", "        raise", f"    {after}",
                "else:", f"    f = [{p}, 0, {a}]", "    st.stack.append(f)", f"    if {p}.fn(st, f):",
                "        return True", "    if st.stack[-1] is not fr:", "        return None"]

    def _loop(self, var: str, coll: ir.X) -> list[str]:
        """`for var in coll:` with a filter's condition as an `if` inside (no list is built)."""
        if not isinstance(coll, ir.Comprehension) or coll.kind != "filter":
            return [f"for {var} in {self.coll(coll)}:"]
        self.local_names.append({coll.slot: var})
        cond = self.expr(coll.cond)
        self.local_names.pop()
        return [f"for {var} in {self.coll(coll.coll)}:", f"    if {cond}:"]

    def _cond(self, x: ir.X) -> str:
        """A condition of the lowered game, inline (locate mode marks its rule text, at `x.at[0]`)."""
        code = x.at[0]
        self.codes.append(code)
        try:
            if self.locate:
                return self._marked(code.ast)
            return self.expr(x)
        finally:
            self.codes.pop()

    def _decide(self, cy, budget: int) -> list[str]:
        """The turn's action decision: the legal actions, in the spec's order, then the pause."""
        out = ["found = []"]
        for i, (when, params) in enumerate(zip(cy.whens, cy.params)):
            body: list[str] = []
            names: dict[int, str] = {}
            pad = ""
            for k, p in enumerate(params):  # one loop per parameter; later ones may read earlier ones
                self.local_names.append(dict(names))
                self.codes.append(p.at[0])
                head = self.mark(p.at[0].ast) + self._loop(f"a{k}", p)
                self.codes.pop()
                self.local_names.pop()
                body += [pad + ln for ln in head]
                names[k] = f"a{k}"
                pad += "    " * len(head)
            if params:
                body += [f"{pad}found.append(({i}, ({''.join(f'a{k}, ' for k in range(len(params)))})))",
                         f"{pad}if len(found) > {int(cy.max_options)}:", f"{pad}    {self.k(cy.too_many)}()"]
            else:
                body.append(f"found.append({i})")
            if when is None:
                out += body
            else:
                out += [f"if {self._cond(when)}:"] + ["    " + ln for ln in body]
        # The legal actions are listed for the player to move, read once (a condition cannot move the turn on).
        out = ["me_ = st.cur", *(re.sub(r"\bst\.cur\b", "me_", ln) for ln in out)]
        out += ["if not found:", f"    {self.k(cy.no_action)}(st)", "    continue", "st.idle = 0"]
        if cy.end_always and cy.end_when is not None:
            out += [f"if {self._cond(cy.end_when)}:", "    return st.finish()"]
        # The pause (State.ask, inline): one step of the budget, then the decision is pending.
        out += [*_pending(0, "st.cur", "found", self.k(cy.actions), str(int(budget))), f"fr[1] = {int(cy.loop)}",
                "if st.auto is None:", "    return True",
                # The seat's agent decides now; the chosen action runs at once (State.take for actions).
                *_agent_picks("st.cur"), "o = found[i]",
                "if type(o) is int:", f"    p = {self.k(cy.programs)}[o]", "    a = [None] * p.n_locals",
                "else:", f"    p = {self.k(cy.programs)}[o[0]]", "    a = [*o[1]] + [None] * (p.n_locals - len(o[1]))",
                *self._call_now("p", "a", "continue")]
        return out
