"""The fixed part of every kernel module: the native helpers and the batch driver, as source text.

Owns what does not depend on a spec: the random streams (a counter-based generator per game for chance
and one for the players), moves of cards and zones on the flat state, shuffles, dice, the step budget,
the records of choices and chance, list and board helpers, and `batch`, which plays one game per seed.
The names it reads (`ZC`, `PAR`, `RCH` ...) are the module constants emit.py writes above it
(layout.py says what each block of a game's array holds). Text only: emit.py puts it into the module.

Why it is one long module: it is one piece of source text, the runtime every generated kernel starts
with; its helpers call one another by name (the arena's `_new` serves the list helpers, the random
streams the shuffles and dice), so a reader of a generated kernel finds all of it in one place.
"""
from __future__ import annotations

RUNTIME = '''
# One array per game, `st`: the state (layout.py), then the parameters (at PAR), the work space of a
# decision's options (at WK, WKC numbers a row), and the records of choices (RCH) and chance (RCC),
# whose sizes are parameters (0: not recording). Passing one array costs a third of passing five.
# Small hot helpers are inlined (`inline="always"`): a call writing `st` stops LLVM keeping the caller's
# reads of `st` in registers (tic-tac-toe 6.95 -> 4.8 us a game). Rare paths (_stop, _spend) stay calls.

@njit(cache=True, inline="always")
def _u64(st, slot):
    x = np.uint64(st[slot]) + np.uint64(0x9E3779B97F4A7C15)
    st[slot] = np.int64(x)
    z = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True, inline="always")
def _below(st, slot, n):
    return np.int64(((_u64(st, slot) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@njit(cache=True)
def _stop(st, code):
    if st[ERR] == 0:
        st[ERR] = code
    if st[STATUS] == 0:
        st[STATUS] = 3 if code >= 10 else 2
    return 3


@njit(cache=True, inline="always")
def _tick(st):
    if st[STEPS] >= st[PAR + 1]:
        return _stop(st, 4)
    st[STEPS] += 1
    return 0


@njit(cache=True)
def _spend(st, n):
    if n > 0:
        if st[STEPS] + n > st[PAR + 1]:
            st[STEPS] = st[PAR + 1]
            return _stop(st, 4)
        st[STEPS] += n
    return 0


@njit(cache=True, inline="always")
def _charge(st, n):
    """Elements an expression goes through: a step of the budget per WORK_PER_STEP (codegen's `_work`)."""
    w = st[WORK] + n
    if w >= WORK_PER_STEP:
        r = _spend(st, w // WORK_PER_STEP)
        st[WORK] = w % WORK_PER_STEP
        return r
    st[WORK] = w
    return 0


@njit(cache=True, inline="always")
def _line_len(st, x, d, k):
    """How many cells `line(x, d, k)` holds (k < 0: to the edge), counted without walking it: the steps
    to the edge along the direction's rows and columns, at most k."""
    if d < 0 or d >= 8:
        return 0
    r = x // MAXC
    c = x % MAXC
    if r < 0 or c < 0 or r >= st[PB] or c >= st[PB + 1]:
        return 0
    n = st[PB] + st[PB + 1]
    if DR[d] > 0:
        n = min(n, st[PB] - r)
    elif DR[d] < 0:
        n = min(n, r + 1)
    if DC[d] > 0:
        n = min(n, st[PB + 1] - c)
    elif DC[d] < 0:
        n = min(n, c + 1)
    return min(n, k) if k >= 0 else n


@njit(cache=True)
def _chance(st, v):
    if st[PAR + 3] > 0:
        k = st[NCC]
        if k + 1 > st[PAR + 3]:
            _stop(st, 14)
            return
        st[RCH + st[PAR + 2] + k] = v
        st[NCC] = k + 1


@njit(cache=True)
def _pick(st, n):
    i = _below(st, ARNG, n)
    if st[PAR + 2] > 0:
        k = st[NCH]
        if k >= st[PAR + 2]:
            _stop(st, 14)
        else:
            st[RCH + k] = i
            st[NCH] = k + 1
    st[DECISIONS] += 1
    return i


@njit(cache=True, inline="always")
def _zv(st, z):
    b = ZC + z * NC
    return st[b:b + st[ZL + z]]


@njit(cache=True)
def _mv(st, c, d):
    if c < 0 or c >= NC:
        return _stop(st, 10)
    s = st[WH + c]
    if s < 0:
        return _stop(st, 10)
    b = ZC + s * NC
    n = st[ZL + s]
    j = n - 1
    while j >= 0 and st[b + j] != c:
        j -= 1
    if j < 0:
        return _stop(st, 10)
    for k in range(j, n - 1):
        st[b + k] = st[b + k + 1]
    st[ZL + s] = n - 1
    nd = st[ZL + d]
    st[ZC + d * NC + nd] = c
    st[ZL + d] = nd + 1
    st[WH + c] = d
    for t in range(NT):  # the kept zone sums (emit.py: a sum or count some rule reads of a whole zone)
        st[ZS + t * NZ + s] -= KS[t, c]
        st[ZS + t * NZ + d] += KS[t, c]
    return 0


@njit(cache=True)
def _mvz(st, s, d):
    if s == d:
        return 0
    n = st[ZL + s]
    if n == 0:
        return 0
    nd = st[ZL + d]
    bs = ZC + s * NC
    bd = ZC + d * NC + nd
    for k in range(n):
        c = st[bs + k]
        st[bd + k] = c
        st[WH + c] = d
    st[ZL + d] = nd + n
    st[ZL + s] = 0
    for t in range(NT):
        st[ZS + t * NZ + d] += st[ZS + t * NZ + s]
        st[ZS + t * NZ + s] = 0
    return 0


@njit(cache=True)
def _shuffle(st, z):
    n = st[ZL + z]
    b = ZC + z * NC
    for i in range(n - 1, 0, -1):
        j = _below(st, RNG, i + 1)
        t = st[b + i]
        st[b + i] = st[b + j]
        st[b + j] = t
    if st[PAR + 3] > 0:
        _chance(st, 1)
        _chance(st, z)
        _chance(st, n)
        for i in range(n):
            _chance(st, st[b + i])


@njit(cache=True)
def _random(st, lo, hi):
    if lo > hi:
        _stop(st, 10)
        return lo
    v = lo + _below(st, RNG, hi - lo + 1)
    if st[PAR + 3] > 0:
        _chance(st, 2)
        _chance(st, v)
    return v


@njit(cache=True)
def _dice(st, n, sides):
    if n < 0 or n > MAX_DICE or sides < 1 or sides > MAX_SIDES:
        _stop(st, 10)
        return _new(st, 0)
    out = _new(st, n)
    for i in range(n):
        out[i] = _random(st, 1, sides)
    return out


@njit(cache=True)
def _roll(st, n, sides):
    if n < 0 or n > MAX_DICE or sides < 1 or sides > MAX_SIDES:
        _stop(st, 10)
        return 0
    t = 0
    for i in range(n):
        t += _random(st, 1, sides)
    return t


@njit(cache=True)
def _roll_as(st, p, n, sides):
    """player_roll / secret_roll (lang/hidden.py): dice rolled as seat p, who must be a seat of this game."""
    if p < 0 or p >= st[N]:
        _stop(st, 10)
        return 0
    return _roll(st, n, sides)


@njit(cache=True)
def _dice_as(st, p, n, sides):
    if p < 0 or p >= st[N]:
        _stop(st, 10)
        return _new(st, 0)
    return _dice(st, n, sides)


# Lists a rule makes live in the arena (`AR0`, `ARN` numbers; st[TOP] the next free one), not on the heap:
# a numba array of its own is a malloc, a free and a reference count (on Stunt Academy, a quarter of a
# kernel game's time). emit.py gives the arena back where every list made since is dead (after a block or
# procedure returns, at each pass of a loop whose body keeps no list, at each action decision); a game
# starts with it empty (play). A list that does not fit is made on the heap, as before.
@njit(cache=True, inline="always")
def _new(st, n):
    """n numbers (unset) in the arena, or on the heap when it is full."""
    t = st[TOP]
    if 0 <= n <= ARN - t:
        st[TOP] = t + n
        return st[AR0 + t:AR0 + t + n]
    return np.empty(n, np.int64)


@njit(cache=True, inline="always")
def _copy(st, a):
    out = _new(st, a.shape[0])
    for i in range(a.shape[0]):
        out[i] = a[i]
    return out


@njit(cache=True, inline="always")
def _of_seat(st, table, p):
    """Seat p's entry of one of emit.py's tables of sides (MP numbers per player count; -1: none)."""
    v = table[st[N] * MP + p] if 0 <= p < st[N] else -1
    if v < 0:
        _stop(st, 10)
        return 0
    return v


@njit(cache=True)
def _members(st, sides, mem, p):
    """The seats of seat p's side, in the order declared (mem: MP seats per side, -1 after the last)."""
    b = (st[N] * MP + _of_seat(st, sides, p)) * MP
    k = 0
    while k < MP and mem[b + k] >= 0:
        k += 1
    return _copy(st, mem[b:b + k])


@njit(cache=True)
def _opponents(st, sides, p):
    mine = _of_seat(st, sides, p)
    out = _new(st, st[N])
    k = 0
    for q in range(st[N]):
        if sides[st[N] * MP + q] != mine:
            out[k] = q
            k += 1
    return out[:k]


@njit(cache=True, inline="always")
def _join_text(st, pl, pr, joined, nr, a, b):
    """Two texts joined (emit.py's x_Concat): each side's place among the values lowering listed (pl, pr),
    then the joined text of that pair (`joined`: nr per left value)."""
    i = pl[a] if 0 <= a < pl.shape[0] else -1
    j = pr[b] if 0 <= b < pr.shape[0] else -1
    if i < 0 or j < 0:
        _stop(st, 10)
        return 0
    return joined[i * nr + j]


@njit(cache=True)
def _others(st):
    n = st[N]
    out = _new(st, n - 1 if n > 0 else 0)
    k = 0
    for p in range(n):
        if p != st[CUR]:
            out[k] = p
            k += 1
    return out[:k]


@njit(cache=True)
def _winners(st):
    out = _new(st, st[N])
    k = 0
    for p in range(st[N]):
        if st[WIN + p] != 0:
            out[k] = p
            k += 1
    return out[:k]


@njit(cache=True, inline="always")
def _contains(a, x):
    for y in a:
        if y == x:
            return True
    return False


@njit(cache=True)
def _position(a, x):
    for i in range(a.shape[0]):
        if a[i] == x:
            return i + 1
    return 0


@njit(cache=True)
def _after(st, a, x):
    for i in range(a.shape[0]):
        if a[i] == x:
            return _copy(st, a[i + 1:])
    return _new(st, 0)


@njit(cache=True)
def _same(a, b):
    if a.shape[0] != b.shape[0]:
        return False
    for i in range(a.shape[0]):
        if a[i] != b[i]:
            return False
    return True


@njit(cache=True)
def _join(st, a, b):
    out = _new(st, a.shape[0] + b.shape[0])
    out[:a.shape[0]] = a
    out[a.shape[0]:] = b
    return out


@njit(cache=True)
def _range(st, a, b):
    if b - a >= 100000:
        _stop(st, 10)
        return _new(st, 0)
    if b < a:
        return _new(st, 0)
    out = _new(st, b - a + 1)
    for i in range(b - a + 1):
        out[i] = a + i
    return out


@njit(cache=True)
def _first(st, a):
    if a.shape[0] == 0:
        _stop(st, 10)
        return 0
    return a[0]


@njit(cache=True)
def _last(st, a):
    if a.shape[0] == 0:
        _stop(st, 10)
        return 0
    return a[a.shape[0] - 1]


@njit(cache=True)
def _firstn(st, a, k):
    k = max(0, min(k, a.shape[0]))
    return _copy(st, a[:k])


@njit(cache=True)
def _lastn(st, a, k):
    if k <= 0:
        return _new(st, 0)
    k = min(k, a.shape[0])
    return _copy(st, a[a.shape[0] - k:])


@njit(cache=True)
def _top(st, z):
    n = st[ZL + z]
    if n == 0:
        _stop(st, 10)
        return 0
    return st[ZC + z * NC + n - 1]


@njit(cache=True)
def _bottom(st, z):
    if st[ZL + z] == 0:
        _stop(st, 10)
        return 0
    return st[ZC + z * NC]


@njit(cache=True, inline="always")
def _seat(st, k):
    if k < 1 or k > st[N]:
        _stop(st, 10)
        return 0
    return k - 1


@njit(cache=True)
def _div(st, a, b):
    if b == 0:
        _stop(st, 10)
        return 0
    return a // b


@njit(cache=True)
def _mod(st, a, b):
    if b == 0:
        _stop(st, 10)
        return 0
    return a % b


@njit(cache=True)
def _top_sum(vals, k):
    if k <= 0:
        return 0
    s = np.sort(vals)[::-1]
    t = 0
    for i in range(min(k, s.shape[0])):
        t += s[i]
    return t


@njit(cache=True)
def _place_points(items, vals, table, x):
    j = -1
    for i in range(items.shape[0]):
        if items[i] == x:
            j = i
            break
    if j < 0:
        return 0
    mine = vals[j]
    above = 0
    tied = 0
    for v in vals:
        if v > mine:
            above += 1
        elif v == mine:
            tied += 1
    t = 0
    for i in range(above, min(above + tied, table.shape[0])):
        t += table[i]
    return t // tied


@njit(cache=True)
def _sorted(st, a):
    out = _copy(st, a)
    out.sort()
    return out


@njit(cache=True)
def _cells(st, b):
    rows = st[PB + 2 * b]
    cols = st[PB + 2 * b + 1]
    out = _new(st, rows * cols)
    for q in range(rows * cols):
        out[q] = (q // cols) * MAXC + q % cols
    return out


@njit(cache=True)
def _cell(st, b, r, c):
    if r < 1 or c < 1 or r > st[PB + 2 * b] or c > st[PB + 2 * b + 1]:
        _stop(st, 10)
        return 0
    return (r - 1) * MAXC + (c - 1)


@njit(cache=True, inline="always")
def _on_board(st, b, r, c):
    return r >= 1 and c >= 1 and r <= st[PB + 2 * b] and c <= st[PB + 2 * b + 1]


@njit(cache=True, inline="always")
def _dir_ok(st, d):
    if d < 0 or d >= 8:
        _stop(st, 10)
        return False
    return True


@njit(cache=True, inline="always")
def _forward(st, fw, w, b, p):
    """forward(board, p): seat p's direction on board b (fw: w directions per board, -1 past its list)."""
    d = fw[b * w + p] if 0 <= p < w else -1
    if d < 0:
        _stop(st, 10)
        return 0
    return d


@njit(cache=True, inline="always")
def _can_step(st, x, d):
    if not _dir_ok(st, d):
        return False
    r = x // MAXC + DR[d]
    c = x % MAXC + DC[d]
    return r >= 0 and c >= 0 and r < st[PB] and c < st[PB + 1]


@njit(cache=True, inline="always")
def _step(st, x, d):
    if not _can_step(st, x, d):
        _stop(st, 10)
        return x
    return x + DR[d] * MAXC + DC[d]


@njit(cache=True)
def _line(st, x, d, k):
    if not _dir_ok(st, d):
        return _new(st, 0)
    cap = max(st[PB], st[PB + 1])
    if k >= 0:
        cap = min(cap, k)
    out = _new(st, max(cap, 0))
    n = 0
    r = x // MAXC
    c = x % MAXC
    while n < cap and r >= 0 and c >= 0 and r < st[PB] and c < st[PB + 1]:
        out[n] = r * MAXC + c
        n += 1
        r += DR[d]
        c += DC[d]
    return out[:n]


@njit(cache=True)
def _around(st, x, first, count):
    out = _new(st, 4)
    n = 0
    for j in range(count):
        d = ORDER8[first + j]
        r = x // MAXC + DR[d]
        c = x % MAXC + DC[d]
        if r >= 0 and c >= 0 and r < st[PB] and c < st[PB + 1]:
            out[n] = r * MAXC + c
            n += 1
    return out[:n]
'''

GAME_ROW = '''        out[g, 0] = st[STATUS]
        out[g, 1] = st[TURN]
        out[g, 2] = st[DECISIONS]
        out[g, 3] = st[STEPS]
        out[g, 4] = st[ERR]
        out[g, 5] = st[NCH]
        out[g, 6] = st[NCC]
        for p in range(MP):
            out[g, 7 + p] = st[WIN + p]
            out[g, 7 + MP + p] = st[PV + SCORE * MP + p] if SCORE >= 0 else 0
        for r in range(NREAD):
            out[g, 7 + 2 * MP + r] = st[COV + r]
        if st[STATUS] == 1 and NMEAS > 0:
            MEAS(st, out[g, 7 + 2 * MP + NREAD:])
'''
"""Game g's row of `out` (layout.out_columns), in both batch drivers (this one and search_prelude.py's)."""

DRIVER = '''
@njit(cache=True)
def batch(st0, par, seeds, out, rch, rcc):
    \"\"\"Plays one game per seed from the start position st0; one row of `out` per game; with room in
    rch and rcc (one game), its choices and chance are recorded there.\"\"\"
    w = np.zeros(RCH + rch.shape[0] + rcc.shape[0], np.int64)
    st = unowned(w)  # the batch owns it: the functions below see it unowned (native.py)
    st[PAR:PAR + par.shape[0]] = par
    st[PAR + 2] = rch.shape[0]
    st[PAR + 3] = rcc.shape[0]
    for g in range(seeds.shape[0]):
        st[:SIZE] = st0
        s = np.uint64(seeds[g])
        st[RNG] = np.int64(s ^ np.uint64(0x5DEECE66D))
        st[ARNG] = np.int64(s * np.uint64(0xD1342543DE82EF95) + np.uint64(1))
        st[NCH] = 0
        st[NCC] = 0
        play(st)
''' + GAME_ROW + '''    # `w` is read here, after the last game: numba frees an array after its last use, and `st` (unowned)
    # must not outlive it.
    rch[:] = w[RCH:RCH + rch.shape[0]]
    rcc[:] = w[RCH + rch.shape[0]:RCH + rch.shape[0] + rcc.shape[0]]
'''
