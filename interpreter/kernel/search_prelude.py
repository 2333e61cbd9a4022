"""The fixed part of every search kernel module: the numba source that does not depend on the spec.

Owns `_AGENT_RUNTIME` (pausing at a search seat's decision, the snapshot and
the prefix of choices, resuming, the greedy and mcts agents' searches) and
`_AGENT_DRIVER` (playing a game with search seats), as source text the search
generator (search_emit.py) puts around each module, as prelude.py does for
emit.py. Determinizing a copy (`_deal`, the hidden values, the others' sealed
picks) is search_deal.py's.
"""
from __future__ import annotations

from .prelude import GAME_ROW

_AGENT_RUNTIME = '''
from interpreter.kernel.native import clock

@njit(cache=True)
def _apick(st, n, who):
    if st[AG + A_KPRE] < st[AG + A_NPRE]:  # replaying the choices made since the snapshot
        k = st[AG + A_KPRE]
        st[AG + A_KPRE] = k + 1
        st[DECISIONS] += 1
        return st[AG + A_PRE + k]
    if st[AG + A_PEND] != 0:  # the decision being resumed
        st[AG + A_PEND] = 0
        st[PAR + 3] = st[AG + A_SAVECC]
        if st[AG + A_MODE] == 0:
            i = st[AG + A_FORCE]
            _keep(st, i)
            _log_move(st, i, who)
            return _record(st, i)
        _deal(st, st[AG + A_ME])
        if st[AG + A_TOG] == 1:  # a `choose together` pick: the generated loop redraws the others' picks
            st[AG + A_TOG] = 2
        st[RNG] = st[AG + A_SEED]
        st[ARNG] = np.int64(np.uint64(st[AG + A_SEED]) * np.uint64(0xD1342543DE82EF95) + np.uint64(1))
        st[AG + A_TURN0] = st[TURN]
        st[AG + A_FK] = 0
        if st[AG + A_SUB] == 3:
            return _tree_pick(st, n, who)
        st[DECISIONS] += 1
        return st[AG + A_FORCE]
    if st[AG + A_MODE] == 0:  # the real game
        kind = st[AG + A_KIND + who]
        if kind == 4:  # `first`: the first legal option, no search
            i = 0
        elif kind == 5:  # `last` (the lab's policy, lab/policies.py): the last legal option
            i = n - 1
        elif kind != 0 and n == 1:  # a forced move: no search (nor a kept tree across it)
            st[MV + who] = -1
            i = 0
        elif kind != 0:
            st[AG + A_PAUSED] = 1
            st[AG + A_WHO] = who
            st[AG + A_NOPT] = n
            return -1
        else:
            i = _below(st, ARNG, n)
        _keep(st, i)
        _log_move(st, i, who)
        return _record(st, i)
    sub = st[AG + A_SUB]
    if sub == 3:
        return _tree_pick(st, n, who)
    if sub == 4:
        return _playout_pick(st, n)
    if sub == 1:  # greedy: my own further decisions of this turn, at random with the common uniforms
        k = st[AG + A_FK]
        if who == st[AG + A_ME] and st[TURN] == st[AG + A_TURN0] and k < FOLLOW_UP:
            st[AG + A_FK] = k + 1
            st[DECISIONS] += 1
            return np.int64(st[AG + A_US + k] / 9007199254740992.0 * n)
    st[AG + A_PAUSED] = 1
    return -1


@njit(cache=True)
def _okey(st, i):
    """Option i of the pending decision as a tree key (the kernel's label: the action or option and its
    values; the phase, for actions)."""
    site = st[AG + A_SITE]
    r = WK + i * WKC
    h = np.uint64(site * 1000003 + 7)
    if site == 0:
        ph = st[AG + A_PH]
        a = st[r]
        h = (h ^ np.uint64(ph + 11)) * np.uint64(0x100000001B3)
        h = (h ^ np.uint64(a + 13)) * np.uint64(0x100000001B3)
        for k in range(NPAR[ph, a]):
            h = (h ^ np.uint64(st[r + 1 + k] + 17)) * np.uint64(0x100000001B3)
    elif site == 3:  # a subset: its mask over the source
        h = (h ^ np.uint64(st[r] + 13)) * np.uint64(0x100000001B3)
    else:
        h = (h ^ np.uint64(st[r] + 13)) * np.uint64(0x100000001B3)
        h = (h ^ np.uint64(st[r + 1] + 17)) * np.uint64(0x100000001B3)
    return np.int64(h >> np.uint64(1))


@njit(cache=True)
def _log_move(st, i, who):
    """A real game's decision, for mcts's kept tree: who chose, its key, and whether another seat may not see it
    (it shows a card, is a secret action or a sealed pick)."""
    k = st[AG + A_NMOV]
    b = MV + MP + (k % MOVES_KEPT) * 3
    st[b] = who
    st[b + 1] = _okey(st, i)
    if st[AG + A_SITE] == 0:
        st[b + 2] = UNSEEN_MOVE[st[AG + A_PH], st[WK + i * WKC]]
    else:
        st[b + 2] = st[AG + A_SECRET]
    st[AG + A_NMOV] = k + 1


@njit(cache=True)
def _reroot(st, sim, me, iterations):
    """Where this search starts: the subtree of my last move, followed down the real moves since, when the
    tree is mine and each move is one I saw (mine, or a choice that shows no card); else a fresh tree."""
    last = st[MV + me]
    now = st[AG + A_NMOV]
    st[MV + me] = now  # this decision's own move is the next one logged: the next search follows it first
    node = sim[AG + A_ROOT]
    ok = sim[AG + A_OWNER] == me and last >= 0 and now - last <= MOVES_KEPT and now > last
    if ok:
        for k in range(last, now):
            b = MV + MP + (k % MOVES_KEPT) * 3
            who = st[b]
            if who != me and st[b + 2] != 0:
                ok = False
                break
            node = _child(sim, node, who, st[b + 1])
            if node < 0:
                ok = False
                break
    if ok and sim[AG + A_NN] + iterations + 2 <= sim[AG + A_CAP]:
        sim[AG + A_ROOT] = node
        return 1
    b = TREE
    sim[b:b + NODE] = 0
    sim[b + 1] = -1
    sim[b + 5] = -1
    sim[b + 6] = -1
    sim[AG + A_NN] = 1
    sim[AG + A_ROOT] = 0
    sim[AG + A_OWNER] = me
    return 0


@njit(cache=True)
def _vkeys(st, src):
    """A `choose` of values: each value as an option row, for the tree's keys."""
    for i in range(min(src.shape[0], MAXOPT)):
        st[WK + i * WKC] = 0
        st[WK + i * WKC + 1] = src[i]


@njit(cache=True)
def _child(st, node, who, key):
    c = st[TREE + node * NODE + 5]
    while c >= 0:
        b = TREE + c * NODE
        if st[b] == key and st[b + 1] == who:
            return c
        c = st[b + 6]
    return -1


@njit(cache=True)
def _tree_pick(st, n, who):
    """MCTS selection (UCB with availability counts) and expansion; after expanding, the playout."""
    node = st[AG + A_NODE]
    untried = 0
    best = -1
    bu = -1.0
    cc = st[AG + A_C] / 1000.0
    for j in range(n):
        ch = _child(st, node, who, _okey(st, j))
        if ch < 0:
            st[CH + j] = -1
            untried += 1
            continue
        b = TREE + ch * NODE
        st[b + 3] += 1
        if untried == 0:
            v = st[b + 2]
            u = st[b + 4] / REWARD_ONE / v + cc * np.sqrt(np.log(st[b + 3]) / v)
            if u > bu:
                best, bu = j, u
        st[CH + j] = ch
    st[DECISIONS] += 1
    if untried > 0:
        r = _below(st, ARNG, untried) if untried > 1 else 0
        pick = -1
        for j in range(n):
            if st[CH + j] < 0:
                if r == 0:
                    pick = j
                    break
                r -= 1
        k = st[AG + A_NN]
        if k >= st[AG + A_CAP]:
            _stop(st, 14)
            return pick
        b = TREE + k * NODE
        st[b] = _okey(st, pick)
        st[b + 1] = who
        st[b + 2] = 0
        st[b + 3] = 1
        st[b + 4] = 0
        st[b + 5] = -1
        st[b + 6] = st[TREE + node * NODE + 5]
        st[TREE + node * NODE + 5] = k
        st[AG + A_NN] = k + 1
        _path(st, k)
        st[AG + A_SUB] = 4
        st[AG + A_LEFT] = st[AG + A_LIMIT]
        st[AG + A_PLAYED] = 0
        return pick
    ch = st[CH + best]
    st[AG + A_NODE] = ch
    _path(st, ch)
    return best


@njit(cache=True)
def _path(st, k):
    p = st[AG + A_NPATH]
    st[TREE + st[AG + A_CAP] * NODE + p] = k
    st[AG + A_NPATH] = p + 1


@njit(cache=True)
def _playout_pick(st, n):
    """A random playout decision; after `limit` of them the position is judged (mcts's `depth`)."""
    if st[AG + A_LEFT] <= 0:
        if st[AG + A_DEPTH] == 0:
            st[AG + A_PAUSED] = 1
            return -1
        vals = np.empty(st[N])
        for p in range(st[N]):
            vals[p] = _value(st, p)
        if vals.max() > vals.min() or st[AG + A_TIED] == 0 or st[AG + A_PLAYED] >= st[AG + A_MAXP]:
            _judge(st, vals)
            st[AG + A_PAUSED] = 1
            return -1
        st[AG + A_LEFT] = st[AG + A_LIMIT]
    st[AG + A_LEFT] -= 1
    st[AG + A_PLAYED] += 1
    st[DECISIONS] += 1
    return _below(st, ARNG, n)


@njit(cache=True)
def _judge(st, vals):
    tau = st[AG + A_TAU] / 1000.0
    n = vals.shape[0]
    if tau <= 0:
        top = vals.max()
        k = 0
        for p in range(n):
            if vals[p] >= top - 1e-9:
                k += 1
        for p in range(n):
            st[AG + A_REW + p] = np.int64(REWARD_ONE / k) if vals[p] >= top - 1e-9 else 0
    else:
        m = vals.max()
        z = 0.0
        for p in range(n):
            z += np.exp((vals[p] - m) / tau)
        for p in range(n):
            st[AG + A_REW + p] = np.int64(REWARD_ONE * np.exp((vals[p] - m) / tau) / z)
    st[AG + A_JUDGED] = 1


@njit(cache=True)
def mcts(st, sim, me, n, iterations, c1000, max_playout, depth, tau1000, tied, micros, used):
    """`mcts` at the real game's paused decision (agents/search.py MctsAgent, on the kernel): one tree over
    my information sets, a new determinization every iteration, UCB with availability, random playouts
    cut after `depth` decisions and judged by the heuristic. With a time budget (`micros` > 0) the search
    also stops once that many microseconds are spent (the clock read every 8 iterations, after the first
    8, as the Python agent does), or when the tree is full (TIMED_NODES). Adds its iterations to used[0]
    and 1 to used[1] when it started from a kept tree."""
    if n == 1:
        st[MV + me] = -1  # a forced move: the kept tree does not follow it
        return 0
    slot = AG + A_ARNG + me
    cap = sim[AG + A_CAP]
    reused = _reroot(st, sim, me, iterations if micros == 0 else min(iterations, cap // 2))
    root = sim[AG + A_ROOT]
    nn = sim[AG + A_NN]
    sim[AG + A_LIMIT] = min(depth if depth > 0 else max_playout, max_playout)  # read, never changed, by a copy
    sim[AG + A_MAXP] = max_playout
    sim[AG + A_TIED] = tied
    sim[AG + A_TAU] = tau1000
    sim[AG + A_C] = c1000
    sim[AG + A_DEPTH] = depth
    deadline = clock() + micros / 1e6 if micros > 0 else 0.0
    done = 0
    for it in range(iterations):
        if micros > 0 and (it > 0 and (it & 7) == 0 and clock() >= deadline or nn + 2 > cap):
            break  # the time is spent, or the tree full (an iteration adds a node at most)
        done += 1
        deal = np.int64(_u64(st, slot))
        seed = np.int64(_u64(st, slot))
        sim[AG + A_NN] = nn
        sim[AG + A_NODE] = root
        sim[AG + A_NPATH] = 0
        sim[AG + A_JUDGED] = 0
        sim[AG + A_DCACHE] = 0
        sim[AG + A_KEEPDEAL] = 0
        _start_copy(st, sim, me, 0, deal, seed, 3)
        nn = sim[AG + A_NN]
        players = sim[N]
        rew = _new(sim, players)  # sim's arena is free once its play has returned
        rew[:] = 0
        if sim[AG + A_JUDGED] != 0:
            for p in range(players):
                rew[p] = sim[AG + A_REW + p]
        elif sim[STATUS] == 1:
            k = 0
            for p in range(players):
                if sim[WIN + p] != 0:
                    k += 1
            for p in range(players):
                if sim[WIN + p] != 0:
                    rew[p] = np.int64(REWARD_ONE / k)
        top = TREE + sim[AG + A_CAP] * NODE
        for q in range(sim[AG + A_NPATH]):
            x = TREE + sim[top + q] * NODE
            sim[x + 2] += 1
            sim[x + 4] += rew[sim[x + 1]]
    sim[AG + A_NN] = nn
    used[0] += done
    used[1] += reused
    best = 0
    bv = -1
    for i in range(n):
        ch = _child(sim, root, me, _okey(st, i))
        v = sim[TREE + ch * NODE + 2] if ch >= 0 else 0
        if v > bv:
            best, bv = i, v
    return best


@njit(cache=True)
def _keep(st, i):
    k = st[AG + A_NPRE]
    if k >= PRE_CAP:
        _stop(st, 14)
        return
    st[AG + A_PRE + k] = i
    st[AG + A_NPRE] = k + 1
    st[AG + A_KPRE] = k + 1


@njit(cache=True)
def _record(st, i):
    if st[PAR + 2] > 0:
        k = st[NCH]
        if k >= st[PAR + 2]:
            _stop(st, 14)
        else:
            st[RCH + k] = i
            st[NCH] = k + 1
    st[DECISIONS] += 1
    return i


@njit(cache=True)
def _snap(st, kind):
    """The real game's resume point: the state now, and no choices since."""
    if st[AG + A_MODE] != 0 or st[AG + A_PEND] != 0:
        return
    st[AG + A_SNAP:AG + A_SNAP + SIZE] = st[:SIZE]
    st[AG + A_SNAPK] = kind
    st[AG + A_SNAPK + 100] = st[AG + A_PH]
    st[AG + A_SNAPK + 101] = st[AG + A_RND]
    st[AG + A_SNAPK + 102] = st[AG + A_BEGUN]
    st[AG + A_NPRE] = 0
    st[AG + A_KPRE] = 0
    if SECRETS:  # which hidden values a `reveal` showed (read only when a spec has some)
        st[SHS:SHS + NSH] = st[SH:SH + NSH]


@njit(cache=True)
def _at_snapshot(dst, st, i):
    """`dst` (the real game, or a search's copy) set back to the real game's snapshot, to replay the choices
    since from the first and resume the paused decision with option i."""
    dst[:SIZE] = st[AG + A_SNAP:AG + A_SNAP + SIZE]
    dst[AG + A_PH] = st[AG + A_SNAPK + 100]
    dst[AG + A_RND] = st[AG + A_SNAPK + 101]
    dst[AG + A_BEGUN] = st[AG + A_SNAPK + 102]
    dst[AG + A_RES] = st[AG + A_SNAPK]
    dst[AG + A_KPRE] = 0
    dst[AG + A_PEND] = 1
    dst[AG + A_PAUSED] = 0
    dst[AG + A_FORCE] = i
    dst[AG + A_TOG] = 0
    if SECRETS:
        dst[SH:SH + NSH] = st[SHS:SHS + NSH]


@njit(cache=True)
def _resume_real(st, i):
    """The real game again from its snapshot, the choices since replayed, then option i at the paused decision."""
    arng, nch, ncc = st[ARNG], st[NCH], st[NCC]
    _at_snapshot(st, st, i)
    st[ARNG], st[NCH], st[NCC] = arng, nch, ncc
    st[AG + A_SAVECC] = st[PAR + 3]
    st[PAR + 3] = 0
    play(st)


@njit(cache=True)
def _start_copy(st, sim, me, i, deal, seed, sub):
    """A search's copy of the real game's paused decision: replayed there, then dealt, then option i."""
    _at_snapshot(sim, st, i)
    npre = st[AG + A_NPRE]
    sim[AG + A_PRE:AG + A_PRE + npre] = st[AG + A_PRE:AG + A_PRE + npre]
    sim[AG + A_NPRE] = npre
    sim[AG + A_MODE] = 1
    sim[AG + A_ME] = me
    sim[AG + A_DEAL] = deal
    sim[AG + A_SEED] = seed
    sim[AG + A_SUB] = sub
    sim[AG + A_HALT] = 1 if sub == 1 else 0
    sim[AG + A_SAVECC] = 0
    play(sim)


@njit(cache=True)
def _value(st, me):
    """How good this copy's position is for `me`: the heuristic (or the scoring keys) in a running game,
    the win share (scaled) in a finished one, 0 in a stalled or broken one."""
    s = st[STATUS]
    if s == 0:
        if HEUR:
            cur = st[CUR]
            st[CUR] = me
            v = np.float64(HV(st))
            st[CUR] = cur
            return v
        v = 0.0
        for i in range(NPVW):
            w = st[WTS + i]
            if w != 0:
                v += w / 1e9 * st[PV + i * MP + me]
        return v
    if s != 1:
        return 0.0
    k = 0
    for p in range(st[N]):
        if st[WIN + p] != 0:
            k += 1
    if st[WIN + me] != 0:
        return WINV / k
    return -WINV


@njit(cache=True)
def _unit(st, slot):
    return np.int64(_u64(st, slot) >> np.uint64(11))


@njit(cache=True)
def greedy(st, sim, me, n, samples, turn, sure, worst, wts, used):
    """`greedy` at the real game's paused decision (agents/search.py GreedyAgent, on the kernel); with
    `worst`, `cautious` (agents/cautious.py: the same look-ahead, one decision later and every sample
    taken, each option judged by its worst sample instead of their sum)."""
    if n == 1:
        return 0
    slot = AG + A_ARNG + me
    totals = np.zeros(n)
    rows = np.zeros((samples, n))
    sure2 = sure * sure
    m = 0
    for m in range(1, samples + 1):
        deal = np.int64(_u64(st, slot))
        seed = np.int64(_u64(st, slot))
        for k in range(FOLLOW_UP):
            sim[AG + A_US + k] = _unit(st, slot)
        sim[AG + A_DCACHE] = 0  # this sample's deal: made at the first option, kept for the others
        sim[AG + A_KEEPDEAL] = 1
        for i in range(n):
            _start_copy(st, sim, me, i, deal, seed, 1 if turn else 2)
            v = _value(sim, me)
            rows[m - 1, i] = v
            totals[i] += v
        if sure > 0 and m >= 4:
            best = 0
            for i in range(n):
                if totals[i] > totals[best]:
                    best = i
            settled = True
            for j in range(n):
                if j == best:
                    continue
                s1 = 0.0
                s2 = 0.0
                for r in range(m):
                    x = rows[r, best] - rows[r, j]
                    s1 += x
                    s2 += x * x
                if not (s1 > 0 and s1 * s1 * (m - 1) > sure2 * (m * s2 - s1 * s1)):
                    settled = False
                    break
            if settled:
                break
    if worst:
        for i in range(n):
            totals[i] = rows[:m, i].min()
    used[0] += m
    top = totals[0]
    for i in range(n):
        top = max(top, totals[i])
    ties = 0
    for i in range(n):
        if totals[i] >= top - 1e-9:
            ties += 1
    r = _below(st, slot, ties)
    for i in range(n):
        if totals[i] >= top - 1e-9:
            if r == 0:
                return i
            r -= 1
    return 0
'''


_AGENT_DRIVER = '''
@njit(cache=True)
def abatch(st0, par, seeds, kinds, settings, wts, out, rch, rcc, used):
    """`batch` with search agents: kinds[p] 0 random, 1 greedy, 2 mcts, 3 cautious, 4 first, 5 last (settings[p]:
    greedy's or cautious's samples, turn, sure * 1000, then mcts's iterations, c * 1000, max_playout, depth,
    tau * 1000, tied, time budget in microseconds or 0)."""
    w = np.zeros(RCH + rch.shape[0] + rcc.shape[0], np.int64)
    st = unowned(w)
    cap = 2
    for p in range(MP):
        if kinds[p] == 2:  # room for a few decisions' trees (kept across them); a timed search's tree is bounded
            room = 4 * (settings[p, 3] + 2)
            cap = max(cap, room if settings[p, 9] == 0 else min(room, TIMED_NODES))
    sw = np.zeros(TREE + cap * (NODE + 1), np.int64)
    sim = unowned(sw)
    st[PAR:PAR + par.shape[0]] = par
    st[PAR + 2] = rch.shape[0]
    st[PAR + 3] = rcc.shape[0]
    sim[PAR:PAR + par.shape[0]] = par
    sim[PAR + 2] = 0
    sim[PAR + 3] = 0
    for i in range(NPVW):
        st[WTS + i] = np.int64(round(wts[i] * 1e9))
        sim[WTS + i] = st[WTS + i]
    sim[AG + A_CAP] = cap
    for g in range(seeds.shape[0]):
        st[:SIZE] = st0
        sim[AG + A_OWNER] = -1
        for p in range(MP):
            st[MV + p] = -1
        s = np.uint64(seeds[g])
        st[RNG] = np.int64(s ^ np.uint64(0x5DEECE66D))
        st[ARNG] = np.int64(s * np.uint64(0xD1342543DE82EF95) + np.uint64(1))
        st[NCH] = 0
        st[NCC] = 0
        st[AG:AG + A_PRE] = 0
        st[SH:SH + NSH] = 0
        for p in range(MP):
            st[AG + A_KIND + p] = kinds[p]
            salt = np.uint64(0xCA71) if kinds[p] == 3 else np.uint64(0x5EA5C4)  # cautious's stream is its own
            st[AG + A_ARNG + p] = np.int64((s + np.uint64(p + 1) * np.uint64(0x9E3779B97F4A7C15)) ^ salt)
        _snap(st, 0)
        play(st)
        while st[AG + A_PAUSED] != 0 and st[STATUS] == 0:
            st[AG + A_PAUSED] = 0
            me = st[AG + A_WHO]
            if kinds[me] == 2:
                i = mcts(st, sim, me, st[AG + A_NOPT], settings[me, 3], settings[me, 4], settings[me, 5],
                         settings[me, 6], settings[me, 7], settings[me, 8], settings[me, 9], used)
            else:
                i = greedy(st, sim, me, st[AG + A_NOPT], settings[me, 0], settings[me, 1], settings[me, 2] / 1000.0,
                           kinds[me] == 3, wts, used)
            _resume_real(st, i)
''' + GAME_ROW + '''    rch[:] = w[RCH:RCH + rch.shape[0]]
    rcc[:] = w[RCH + rch.shape[0]:RCH + rch.shape[0] + rcc.shape[0]]
    sw[0] = sw[0]  # `sw` (and `w` above) outlive their unowned views
'''
