"""The Splash & Bash rules compiled with numba: one game as integer arrays (B05-B33, BD01-BD18).

A game is three arrays: ``G`` (the state: turn scalars, then the board, then two board
snapshots), ``E`` (the events of the current action) and ``C`` (the counts a record needs).
``T`` holds the tables of one configuration (:mod:`splash.fast.tables`).  The functions
mirror :mod:`splash.games.bash.state`, :mod:`~splash.games.bash.mechanics` and
:mod:`~splash.games.bash.resolver` step by step; the reference engine stays the authority
and :mod:`splash.fast.verify` replays every fast game through it.

The resolver's mutual recursion (enter, bump, displace, slip) runs on an explicit frame
stack: numba's on-disk cache cannot reload recursive functions.  Everything compiled lives
in this one module on purpose: numba's cache notices a change only in the file of the
function it loads, so a constant or a callee in another file could leave a stale cache.
"""

from __future__ import annotations

from collections import namedtuple
from typing import Any

import numpy as np
from numba import njit

_NO_RUNTIME: dict[str, Any] = {"cache": True, "_nrt": False}
compiled = njit(**_NO_RUNTIME)
"""Every function but the entry points (``new_work``, ``play_batch``, ``playouts``,
``greedy_decide`` and ``ismcts_decide``, compiled with the runtime): compiled without numba's
reference-counting runtime, so passing an array costs no atomic increment and decrement (they
took over a third of the time).  Such a function allocates nothing; the entry points allocate
the work arrays."""
compiled_inline = njit(inline="always", **_NO_RUNTIME)

# ----- tables (T) offsets -------------------------------------------------------------
MAXC = 16  # card kinds per deck
MAXE = 4  # effects per card
EFW = 8  # fields per effect
MAXCP = 16  # checkpoints per lane
MAXDICE = 40
MAXMOD = 8
MAXEFF = 32
MAXANS = 16
MAXEV = 1024
EV_KEEP = 4 * MAXEV
"""Where in ``E`` the greedy look-ahead keeps the game's own events while it plays ahead."""
EV_BUFFER = 8 * MAXEV
"""The size of ``E``: an action's events (``4 * MAXEV``), then room to keep them."""
MAXFR = 256
TEAMS_MAX = 4

T_TEAMS, T_FACES, T_PERM, T_HLAPS, T_LAPS, T_CAP, T_HANDLIM, T_LCC, T_TAIL, T_BUMPD = range(10)
T_LEN = 10  # 3
T_LMAX = 13
T_COL = 14  # 3
T_NCP = 17  # 3
T_CP = 20  # 3 * MAXCP
T_NCARD = T_CP + 3 * MAXCP  # 2
T_CCOUNT = T_NCARD + 2  # 2 * MAXC
T_CTIME = T_CCOUNT + 2 * MAXC
T_CNEFF = T_CTIME + 2 * MAXC
T_REACT = T_CNEFF + 2 * MAXC  # MAXC
T_ANYREACT = T_REACT + MAXC
T_WINFIT = T_ANYREACT + 1  # 5 (index by window code 1..4)
T_EFF = T_WINFIT + 5  # 2 * MAXC * MAXE * EFW
T_A_START = T_EFF + 2 * MAXC * MAXE * EFW  # 3
T_A_CHANGE = T_A_START + 3
T_A_STAY = T_A_CHANGE + 3
T_A_PASS = T_A_STAY + 1
T_A_PLAY = T_A_PASS + 1  # MAXC
T_A_DISCARD = T_A_PLAY + MAXC
T_A_TARGET = T_A_DISCARD + MAXC  # 16
T_A_VICTIM = T_A_TARGET + 16  # 4
T_A_KEEP = T_A_VICTIM + 4  # 2
T_A_ROLL = T_A_KEEP + 2  # 20
T_A_DRAW = T_A_ROLL + 20  # 2 * MAXC
T_A_STEAL = T_A_DRAW + 2 * MAXC
T_NA = T_A_STEAL + MAXC
T_ORDER = T_NA + 1  # BV01: ORDER_*
T_PENALTY = T_NA + 2  # BV02
T_STAGGER = T_NA + 3  # BV03
T_CATCHUP = T_NA + 4  # BV04
T_OPENING = T_NA + 5  # BV05
T_A_OBST = T_NA + 6  # 3 * LMAX
T_FIXED = T_A_OBST
"""Then the obstacle action ids (3 · LMAX), then the decoding of each action id (3 · NA)."""

HAND = 1  # the high tide deck
ORDER_SEAT, ORDER_ROTATE, ORDER_SNAKE = range(3)
OUTER, CENTRE, HIGH = 0, 1, 2
HELM = 3

# timings / windows
TM_ON_DRAW, TM_BEFORE_ROLL, TM_AFTER_ROLL, TM_AFTER_LANE, TM_AFTER_WALK, TM_ANY, TM_ON_FALL = range(
    7
)
# primitives
(
    PR_ROLL_MODIFIER,
    PR_EXTRA_DIE,
    PR_REROLL,
    PR_FREE_LANE,
    PR_SKIP_MOVE,
    PR_PLACE_OBSTACLE,
    PR_MOVE,
    PR_PUSH,
    PR_FALL,
    PR_CANCEL_FALL,
    PR_DISCARD_CARD,
    PR_STEAL_CARD,
) = range(1, 13)
# action kinds (decoded)
(
    AK_START,
    AK_CHANGE,
    AK_STAY,
    AK_PASS,
    AK_PLAY,
    AK_DISCARD,
    AK_OBST,
    AK_TARGET,
    AK_VICTIM,
    AK_KEEP,
    AK_ROLL,
    AK_DRAW,
    AK_STEAL,
) = range(13)

# ----- state (G) offsets --------------------------------------------------------------
S_TEAM, S_ACTIVE, S_STEP, S_TURNS, S_SETUP, S_OVER = range(6)
S_AW, S_AWT, S_AWA, S_AWB = 6, 7, 8, 9
S_PEND, S_POP, S_PTEAM, S_PPIECE, S_PPARAM, S_NANS = 10, 11, 12, 13, 14, 15
S_ANS = 16
S_QKIND = S_ANS + MAXANS
S_QTEAM = S_QKIND + 1
S_QOPTS = S_QKIND + 2
S_QPIECE = S_QKIND + 3
S_NDICE = S_QKIND + 4
S_DICE = S_NDICE + 1
S_NRER = S_DICE + MAXDICE
S_RER = S_NRER + 1
S_EXTRA = S_RER + MAXDICE
S_NMOD = S_EXTRA + 1
S_MOD = S_NMOD + 1
S_FREE = S_MOD + 2 * MAXMOD
S_SKIP = S_FREE + 1
S_LCOST = S_FREE + 2
S_MOVOVER = S_FREE + 3
S_NEXTP = S_FREE + 4  # 4
S_NEFF = S_NEXTP + 4
S_EFF = S_NEFF + 1
S_TURN_END = S_EFF + MAXEFF
"""The state proper ends here; what follows is the resolver's scratch."""
S_CHAIN = S_TURN_END
S_CHSET = S_CHAIN + 1  # 16
S_NEXTANS = S_CHSET + 16
S_UNDOCARD = S_NEXTANS + 1
S_UNDOTEAM = S_NEXTANS + 2
S_ERR = S_NEXTANS + 3
BOARD = S_ERR + 8
B_LANE, B_S, B_FIN = 0, 16, 32
B_HAND = 48  # 4 * MAXC
B_DECK = B_HAND + 4 * MAXC  # 2 * MAXC
B_DISC = B_DECK + 2 * MAXC
B_PLAYED = B_DISC + 2 * MAXC  # 4
B_WIN = B_PLAYED + 4
B_EVLEN = B_WIN + 1
B_OBS = B_EVLEN + 1  # 3 * LMAX

# awaited kinds
AW_NONE, AW_START, AW_DRAW, AW_ROLL, AW_STEAL, AW_WINDOW, AW_LANE = range(7)
AW_DISCARD, AW_OBST, AW_TARGET, AW_VICTIM, AW_KEEP = range(7, 12)
# operations
OP_WALK, OP_CHLANE, OP_PUSH, OP_FALL = range(1, 5)
Q_LIFEBUOY, Q_DISCARD = 1, 2
PASS_BIT = 1 << MAXC

# event kinds, in splash.games.bash.events.EVENT_KINDS order
(
    EV_RESHUFFLE,
    EV_NO_CARD,
    EV_DRAW,
    EV_PLAY,
    EV_ROLL,
    EV_ENTER,
    EV_OBSTACLE,
    EV_OBSTACLE_LOST,
    EV_STEAL,
    EV_DISCARD,
    EV_TURN_CAP,
    EV_BUMP,
    EV_CHAIN_UNDONE,
    EV_SLIP,
    EV_FALL,
    EV_RESTART,
    EV_SAVED,
    EV_FINISH,
    EV_BOUNCE,
) = range(19)
NEV = 19

# results and signals of the resolver
R_MOVED, R_BUMPED, R_SLIPPED, R_FELL, R_SAVED, R_STOPPED, R_FINISHED = range(7)
R_NEED, R_WON, R_UNDO = 10, 11, 12
CALL, TAIL = -1000, -1001
H_FWD, H_BWD, H_IN, H_OUT, H_PUT = range(5)
FR_ENTER, FR_DISPLACE, FR_SLIP, FR_WALK, FR_CHLANE, FR_PUSH, FR_OUTER = range(1, 8)
FRW = 10

# frame (F) slots: a row of the resolver's explicit stack, one step (FR_*) each
FS_KIND = 0  # the step: FR_*
FS_STAGE = 1  # 0 until it calls another step, then 1 (enter, slip, walk, chlane, push)
FS_PIECE = 2  # the piece it moves (every step)
FS_ARG1, FS_ARG2, FS_ARG3 = 3, 4, 5  # its arguments, as set_frame writes them
FS_LANE, FS_SQUARE, FS_HOW = FS_ARG1, FS_ARG2, FS_ARG3  # enter: where to and how (H_*)
FS_CHAIN = 6  # enter: 1 when its bump started the chain, 2 when it joined one
FS_PUSHED = FS_ARG1  # displace: which way the piece is pushed (H_*)
FS_INWARD = FS_ARG1  # push: inward (1) or outward (0)
FS_POINTS = FS_ARG1  # walk: the points to walk
FS_TOTAL = 4  # walk: the squares of the piece's lane
FS_AT = 5  # walk: the square reached
FS_STEP = 6  # walk: +1 forward, -1 after bouncing back (a helmsman)
FS_LEFT = 7  # walk: the points left
FS_TARGET = 8  # walk: the square the called enter goes to

# counters (C)
C_EV = 0
C_TEAM = NEV
TB_LANE, TB_BM, TB_BS, TB_CH, TB_PF, TB_OH = 0, 3, 4, 5, 6, 7
TB_DRAWN = 8
TB_PLAYED = TB_DRAWN + 2 * MAXC
TB = TB_PLAYED + MAXC
C_LONG = C_TEAM + TEAMS_MAX * TB
C_ACTIONS = C_LONG + 1
C_DECISIONS = C_LONG + 2
C_CHNEXT = C_LONG + 3
C_LT_TURNS = C_LONG + 4
C_LT_TEAM = C_LONG + 5
C_LCOUNTED = C_LONG + 6
C_MOVES = C_LONG + 7
C_SIZE = C_LONG + 8

CHANCE = -1
TERMINAL = -2

ERR_EVENTS, ERR_FRAMES, ERR_LIST, ERR_ANSWERS = 1, 2, 3, 4
"""The limits a game can break (``G[S_ERR]``): events in one action, resolver frames, an
empty list of legal actions, answers within one movement."""


def board_size(lmax: int) -> int:
    """Length of the board segment for lanes of at most ``lmax`` squares."""
    return B_OBS + 3 * lmax


def state_size(lmax: int) -> int:
    """Length of ``G`` for lanes of at most ``lmax`` squares."""
    return BOARD + 3 * board_size(lmax)


def scratch_size(lmax: int) -> int:
    """Length of the ``ids``, ``weights`` and ``scratch`` arrays for lanes of at most ``lmax``
    squares: up to ``3 · lmax`` answers, and the occupancy of the free-square search."""
    return 6 * lmax + 64


# ===== course ===========================================================================


@compiled_inline
def nb_of(T):
    return B_OBS + 3 * T[T_LMAX]


@compiled
def total_of(T, lane, helm):
    laps = T[T_HLAPS] if helm else T[T_LAPS]
    return laps * T[T_LEN + lane]


@compiled
def alongside(T, lane, s, to_lane):
    while lane != to_lane:
        step = 1 if to_lane > lane else -1
        n_from = T[T_LEN + lane]
        n_to = T[T_LEN + lane + step]
        s = (2 * s * n_to + n_from) // (2 * n_from)
        lane += step
    return s


@compiled
def on_line(T, lane, s):
    return s % T[T_LEN + lane] == 0


@compiled
def has_obstacle(G, T, lane, s):
    return G[BOARD + B_OBS + lane * T[T_LMAX] + s % T[T_LEN + lane]] != 0


@compiled
def restart_s(T, lane, s):
    n = T[T_LEN + lane]
    lap = s // n
    square = s % n
    line = 0
    for i in range(T[T_NCP + lane]):
        if T[T_CP + lane * MAXCP + i] <= square:
            line = i
    return lap * T[T_LEN + CENTRE] + T[T_CP + CENTRE * MAXCP + line]


@compiled
def on_course(G, p):
    return G[BOARD + B_LANE + p] >= 0 and G[BOARD + B_FIN + p] == 0


@compiled
def occupant(G, T, lane, s, exclude):
    n = T[T_LEN + lane]
    square = s % n
    for p in range(4 * T[T_TEAMS]):
        if p != exclude and on_course(G, p) and G[BOARD + B_LANE + p] == lane:
            if G[BOARD + B_S + p] % n == square:
                return p
    return -1


@compiled
def turn_team(T, turns):
    """:func:`splash.games.bash.variants.turn_team` (BV01)."""
    n = T[T_TEAMS]
    rnd = turns // n
    place_ = turns % n
    if T[T_ORDER] == ORDER_ROTATE:
        return (rnd + place_) % n
    if T[T_ORDER] == ORDER_SNAKE and rnd % 2 == 1:
        return n - 1 - place_
    return place_


@compiled
def start_square(G, T, p, lane):
    """:func:`splash.games.bash.variants.start_square` (BV03) for piece ``p``."""
    s = min(alongside(T, CENTRE, T[T_STAGGER] * (p // 4), lane), T[T_LEN + lane] - 1)
    while s > 0 and occupant(G, T, lane, s, p) >= 0:
        s -= 1
    return s


@compiled
def furthest_behind(G, T):
    """:func:`splash.games.bash.variants.furthest_behind` (BV04)."""
    product = T[T_LEN] * T[T_LEN + 1] * T[T_LEN + 2]
    least = 0
    who = -1
    for t in range(T[T_TEAMS]):
        total = 0
        for i in range(3):
            p = t * 4 + i
            lane = G[BOARD + B_LANE + p]
            if G[BOARD + B_FIN + p] != 0:
                total += T[T_LAPS] * product
            elif lane >= 0:
                total += G[BOARD + B_S + p] * (product // T[T_LEN + lane])
        if who < 0 or total <= least:
            least = total
            who = t
    return who


@compiled
def piece_alongside(G, T, p, lane):
    square = alongside(T, G[BOARD + B_LANE + p], G[BOARD + B_S + p], lane)
    return min(square, total_of(T, lane, p % 4 == HELM) - 1)


@compiled
def place(G, p, lane, s):
    G[BOARD + B_LANE + p] = lane
    G[BOARD + B_S + p] = s


# ===== events, hands, snapshots ========================================================


@compiled
def event(G, E, kind, a, b, c):
    n = G[BOARD + B_EVLEN]
    if n >= MAXEV:
        G[S_ERR] = ERR_EVENTS
        return
    E[4 * n] = kind
    E[4 * n + 1] = a
    E[4 * n + 2] = b
    E[4 * n + 3] = c
    G[BOARD + B_EVLEN] = n + 1


@compiled
def hand_size(G, team):
    total = 0
    for c in range(MAXC):
        total += G[BOARD + B_HAND + team * MAXC + c]
    return total


@compiled
def hand_mask(G, team):
    mask = 0
    for c in range(MAXC):
        if G[BOARD + B_HAND + team * MAXC + c] > 0:
            mask |= 1 << c
    return mask


@compiled
def discard_card(G, team, card):
    G[BOARD + B_HAND + team * MAXC + card] -= 1
    G[BOARD + B_DISC + HAND * MAXC + card] += 1


@compiled
def snapshot(G, T, dest):
    for i in range(nb_of(T)):
        G[dest + i] = G[BOARD + i]


@compiled
def restore(G, T, src):
    for i in range(nb_of(T)):
        G[BOARD + i] = G[src + i]


@compiled
def opsnap(T):
    return BOARD + nb_of(T)


@compiled
def chainsnap(T):
    return BOARD + 2 * nb_of(T)


# ===== the resolver =====================================================================


@compiled
def ask(G, kind, team, options, p):
    """The next given answer (a card, -1 for pass), or -2 after posing the question."""
    i = G[S_NEXTANS]
    if i >= G[S_NANS]:
        G[S_QKIND] = kind
        G[S_QTEAM] = team
        G[S_QOPTS] = options
        G[S_QPIECE] = p
        return -2
    G[S_NEXTANS] = i + 1
    return G[S_ANS + i]


@compiled
def finish(G, E, p):
    G[BOARD + B_FIN + p] = 1
    G[BOARD + B_LANE + p] = -1
    G[BOARD + B_S + p] = 0
    event(G, E, EV_FINISH, p, 0, 0)
    if p % 4 == HELM:
        G[BOARD + B_WIN] = p // 4
        return R_WON
    return R_FINISHED


@compiled
def play_reaction(G, E, team, card):
    discard_card(G, team, card)
    G[BOARD + B_PLAYED + team] = 1
    event(G, E, EV_PLAY, team, card, 0)


@compiled
def fall(G, T, E, p, slipped):
    team = p // 4
    card = -1
    if T[T_ANYREACT] != 0 and hand_size(G, team) > 0 and G[BOARD + B_PLAYED + team] == 0:
        options = PASS_BIT
        for c in range(MAXC):
            if T[T_REACT + c] != 0 and G[BOARD + B_HAND + team * MAXC + c] > 0:
                options |= 1 << c
        card = ask(G, Q_LIFEBUOY, team, options, p)
        if card == -2:
            return R_NEED
    lane = G[BOARD + B_LANE + p]
    if card >= 0:
        if G[S_CHAIN] != 0:
            G[S_UNDOTEAM] = team
            G[S_UNDOCARD] = card
            return R_UNDO
        play_reaction(G, E, team, card)
        if slipped:
            G[BOARD + B_OBS + lane * T[T_LMAX] + G[BOARD + B_S + p] % T[T_LEN + lane]] = 0
        event(G, E, EV_SAVED, p, card, 0)
        return R_SAVED
    event(G, E, EV_FALL, p, 0, 0)
    s = restart_s(T, lane, G[BOARD + B_S + p])
    while not on_line(T, CENTRE, s) and (
        occupant(G, T, CENTRE, s, p) >= 0 or has_obstacle(G, T, CENTRE, s)
    ):
        s -= 1
    place(G, p, CENTRE, s)
    event(G, E, EV_RESTART, p, 0, 0)
    return R_FELL


@compiled
def undo(G, T, E):
    restore(G, T, chainsnap(T))
    if G[S_UNDOCARD] >= 0:
        play_reaction(G, E, G[S_UNDOTEAM], G[S_UNDOCARD])
    event(G, E, EV_CHAIN_UNDONE, 0, 0, 0)
    return R_STOPPED


@compiled
def set_frame(F, i, kind, a, b, c, d):
    F[i, FS_KIND] = kind
    F[i, FS_STAGE] = 0
    F[i, FS_PIECE] = a
    F[i, FS_ARG1] = b
    F[i, FS_ARG2] = c
    F[i, FS_ARG3] = d


@compiled
def start_bump(G, E, F, i, p, lane, s, occ, how):
    G[S_CHSET + p] = 1
    place(G, p, lane, s)
    push = H_BWD if how == H_PUT else how
    event(G, E, EV_BUMP, p, occ, push)
    set_frame(F, i + 1, FR_DISPLACE, occ, push, 0, 0)
    return CALL


@compiled
def step_enter(G, T, E, F, i, r):
    p, lane, s, how = F[i, FS_PIECE], F[i, FS_LANE], F[i, FS_SQUARE], F[i, FS_HOW]
    result = R_MOVED
    if F[i, FS_STAGE] == 0:
        if on_line(T, lane, s):
            place(G, p, lane, s)
            return R_MOVED
        occ = occupant(G, T, lane, s, p)
        if occ >= 0:
            F[i, FS_STAGE] = 1
            if G[S_CHAIN] == 0:
                snapshot(G, T, chainsnap(T))
                G[S_CHAIN] = 1
                for q in range(16):
                    G[S_CHSET + q] = 0
                F[i, FS_CHAIN] = 1
            else:
                if G[S_CHSET + occ] != 0:
                    G[S_UNDOCARD] = -1
                    return R_UNDO
                F[i, FS_CHAIN] = 2
            return start_bump(G, E, F, i, p, lane, s, occ, how)
        place(G, p, lane, s)
    else:
        if F[i, FS_CHAIN] == 1:
            if r == R_UNDO:
                G[S_CHAIN] = 0
                return undo(G, T, E)
            if r >= R_NEED:
                return r
            G[S_CHAIN] = 0
        elif r >= R_NEED:
            return r
        result = R_BUMPED
    if (
        on_course(G, p)
        and G[BOARD + B_LANE + p] == lane
        and G[BOARD + B_S + p] == s
        and has_obstacle(G, T, lane, s)
    ):
        set_frame(F, i, FR_SLIP, p, 0, 0, 0)
        return TAIL
    return result


@compiled
def cross(G, T, F, i, p, lane, start, stop, step):
    """Slip on the first obstacle of ``range(start, stop, step)``: TAIL, else 0."""
    x = start
    while (step > 0 and x < stop) or (step < 0 and x > stop):
        if has_obstacle(G, T, lane, x) and not on_line(T, lane, x):
            place(G, p, lane, x)
            set_frame(F, i, FR_SLIP, p, 0, 0, 0)
            return TAIL
        x += step
    return 0


@compiled
def step_displace(G, T, E, F, i):
    p, how = F[i, FS_PIECE], F[i, FS_PUSHED]
    G[S_CHSET + p] = 1
    d = T[T_BUMPD]
    lane = G[BOARD + B_LANE + p]
    s = G[BOARD + B_S + p]
    helm = p % 4 == HELM
    if how == H_FWD:
        total = total_of(T, lane, helm)
        target = s + d
        if cross(G, T, F, i, p, lane, s + 1, min(target, total), 1) == TAIL:
            return TAIL
        if target >= total:
            if not helm or target == total:
                return finish(G, E, p)
            target = max(0, total - (target - total))
            if cross(G, T, F, i, p, lane, total - 1, target, -1) == TAIL:
                return TAIL
            set_frame(F, i, FR_ENTER, p, lane, target, H_BWD)
            return TAIL
        set_frame(F, i, FR_ENTER, p, lane, target, H_FWD)
        return TAIL
    if how == H_BWD:
        target = max(0, s - d)
        if cross(G, T, F, i, p, lane, s - 1, target, -1) == TAIL:
            return TAIL
        set_frame(F, i, FR_ENTER, p, lane, target, H_BWD)
        return TAIL
    if how == H_IN:
        if lane == HIGH:
            return fall(G, T, E, p, False)
        set_frame(F, i, FR_ENTER, p, lane + 1, piece_alongside(G, T, p, lane + 1), H_IN)
        return TAIL
    if lane == OUTER:
        set_frame(F, i, FR_OUTER, p, 0, 0, 0)
        return TAIL
    set_frame(F, i, FR_ENTER, p, lane - 1, piece_alongside(G, T, p, lane - 1), H_OUT)
    return TAIL


@compiled
def step_outer(G, E, F, i):
    p = F[i, FS_PIECE]
    team = p // 4
    n = hand_size(G, team)
    if n > 0:
        mask = hand_mask(G, team)
        if n == 1:
            card = 0
            while (mask >> card) & 1 == 0:
                card += 1
        else:
            card = ask(G, Q_DISCARD, team, mask, p)
            if card == -2:
                return R_NEED
        discard_card(G, team, card)
        event(G, E, EV_DISCARD, team, card, 0)
    set_frame(F, i, FR_ENTER, p, OUTER, max(0, G[BOARD + B_S + p] - 1), H_PUT)
    return TAIL


@compiled
def step_slip(G, T, E, F, i, r):
    p = F[i, FS_PIECE]
    if F[i, FS_STAGE] == 1:
        return R_SLIPPED if r == R_MOVED or r == R_BUMPED else r
    lane = G[BOARD + B_LANE + p]
    if T[T_PERM] == 0:
        G[BOARD + B_OBS + lane * T[T_LMAX] + G[BOARD + B_S + p] % T[T_LEN + lane]] = 0
    event(G, E, EV_SLIP, p, 0, 0)
    if lane == HIGH:
        return fall(G, T, E, p, True)
    F[i, FS_STAGE] = 1
    set_frame(F, i + 1, FR_ENTER, p, lane + 1, piece_alongside(G, T, p, lane + 1), H_IN)
    return CALL


@compiled
def step_walk(G, T, E, F, i, r):
    p = F[i, FS_PIECE]
    helm = p % 4 == HELM
    if F[i, FS_STAGE] == 0:
        F[i, FS_TOTAL] = total_of(T, G[BOARD + B_LANE + p], helm)
        F[i, FS_AT] = G[BOARD + B_S + p]
        F[i, FS_STEP] = 1
        F[i, FS_LEFT] = F[i, FS_POINTS]
        F[i, FS_STAGE] = 1
    else:
        F[i, FS_AT] = F[i, FS_TARGET]
        if r != R_MOVED:
            return r
    total = F[i, FS_TOTAL]
    while F[i, FS_LEFT] > 0:
        F[i, FS_LEFT] -= 1
        target = F[i, FS_AT] + F[i, FS_STEP]
        if F[i, FS_STEP] > 0 and target >= total:
            if not helm or F[i, FS_LEFT] == 0:
                return finish(G, E, p)
            event(G, E, EV_BOUNCE, p, F[i, FS_LEFT], 0)
            F[i, FS_AT] = total
            F[i, FS_STEP] = -1
            continue
        if target < 0:
            break
        F[i, FS_TARGET] = target
        set_frame(
            F,
            i + 1,
            FR_ENTER,
            p,
            G[BOARD + B_LANE + p],
            target,
            H_FWD if F[i, FS_STEP] > 0 else H_BWD,
        )
        return CALL
    return R_MOVED


@compiled
def step_chlane(G, T, F, i, r):
    p, lane = F[i, FS_PIECE], F[i, FS_LANE]
    if F[i, FS_STAGE] == 1 and r != R_MOVED:
        return r
    F[i, FS_STAGE] = 1
    cur = G[BOARD + B_LANE + p]
    if cur >= 0 and cur != lane:
        step = 1 if lane > cur else -1
        new_lane = cur + step
        square = piece_alongside(G, T, p, new_lane)
        set_frame(F, i + 1, FR_ENTER, p, new_lane, square, H_IN if step > 0 else H_OUT)
        return CALL
    return R_MOVED


@compiled
def step_push(G, T, E, F, i, r):
    p, inward = F[i, FS_PIECE], F[i, FS_INWARD]
    if F[i, FS_STAGE] == 0:
        snapshot(G, T, chainsnap(T))
        G[S_CHAIN] = 1
        for q in range(16):
            G[S_CHSET + q] = 0
        F[i, FS_STAGE] = 1
        set_frame(F, i + 1, FR_DISPLACE, p, H_IN if inward else H_OUT, 0, 0)
        return CALL
    if r == R_UNDO:
        r = undo(G, T, E)
    G[S_CHAIN] = 0
    return r


@compiled
def resolve(G, T, E, F, op, p, param):
    """Run one operation (a walk, a lane change, a card's push or fall) to its result."""
    G[S_CHAIN] = 0
    G[S_NEXTANS] = 0
    if op == OP_FALL:
        return fall(G, T, E, p, False)
    kind = FR_WALK if op == OP_WALK else (FR_CHLANE if op == OP_CHLANE else FR_PUSH)
    set_frame(F, 0, kind, p, param, 0, 0)
    sp = 1
    r = 0
    while sp > 0:
        if sp >= MAXFR - 1:
            G[S_ERR] = ERR_FRAMES
            return R_WON
        i = sp - 1
        k = F[i, FS_KIND]
        if k == FR_ENTER:
            v = step_enter(G, T, E, F, i, r)
        elif k == FR_DISPLACE:
            v = step_displace(G, T, E, F, i)
        elif k == FR_SLIP:
            v = step_slip(G, T, E, F, i, r)
        elif k == FR_WALK:
            v = step_walk(G, T, E, F, i, r)
        elif k == FR_CHLANE:
            v = step_chlane(G, T, F, i, r)
        elif k == FR_PUSH:
            v = step_push(G, T, E, F, i, r)
        else:
            v = step_outer(G, E, F, i)
        if v == CALL:
            sp += 1
            r = 0
        elif v == TAIL:
            r = 0
        else:
            sp -= 1
            r = v
    return r


# ===== mechanics ========================================================================


@compiled
def active_piece(G):
    return G[S_TEAM] * 4 + G[S_ACTIVE]


@compiled
def eff_at(T, ref):
    """Offset in ``T`` of the effect ``ref`` (``(deck · MAXC + card) · MAXE + index``)."""
    return T_EFF + ref * EFW


@compiled
def execute(G, T, E, F):
    op = G[S_POP]
    p = G[S_PTEAM] * 4 + G[S_PPIECE]
    r = resolve(G, T, E, F, op, p, G[S_PPARAM])
    if r == R_NEED:
        evlen = G[BOARD + B_EVLEN]
        restore(G, T, opsnap(T))
        G[BOARD + B_EVLEN] = evlen
        G[S_PEND] = 1
        return
    G[S_PEND] = 0
    if r == R_WON:
        G[S_OVER] = 1
        G[S_NEFF] = 0
        return
    if op == OP_CHLANE and r != R_MOVED:
        G[S_MOVOVER] = 1


@compiled
def run_op(G, T, E, F, op, team, piece, param):
    snapshot(G, T, opsnap(T))
    G[S_POP] = op
    G[S_PTEAM] = team
    G[S_PPIECE] = piece
    G[S_PPARAM] = param
    G[S_NANS] = 0
    execute(G, T, E, F)


@compiled
def roll_value(G):
    n = G[S_NDICE]
    if n == 0:
        return 0
    value = 0
    for i in range(n):
        value += G[S_DICE + i]
    for m in range(G[S_NMOD]):
        value = max(G[S_MOD + 2 * m + 1], value + G[S_MOD + 2 * m])
    return value


@compiled
def lane_options(G, T, out):
    """``(lane, cost)`` pairs into ``out``; their number."""
    p = active_piece(G)
    lane = G[BOARD + B_LANE + p]
    if lane < 0 or G[S_NDICE] == 0:
        return 0
    roll = roll_value(G)
    unit = 0 if G[S_FREE] != 0 else T[T_LCC]
    n = 0
    for other in range(3):
        if other != lane:
            cost = abs(other - lane) * unit
            if cost <= roll:
                out[2 * n] = other
                out[2 * n + 1] = cost
                n += 1
    return n


@compiled
def free_squares(G, T, out, keep):
    """The free squares (no obstacle, no piece on course, not a line) as obstacle action keys
    ``lane · LMAX + square``, into ``out`` when ``keep``; their number.  The last ``3 · LMAX``
    entries of ``out`` hold the occupancy meanwhile (see :func:`scratch_size`)."""
    lmax = T[T_LMAX]
    base = out.shape[0] - 3 * lmax
    for i in range(3 * lmax):
        out[base + i] = G[BOARD + B_OBS + i]
    for p in range(4 * T[T_TEAMS]):
        if on_course(G, p):
            lane = G[BOARD + B_LANE + p]
            out[base + lane * lmax + G[BOARD + B_S + p] % T[T_LEN + lane]] = 1
    n = 0
    for lane in range(3):
        for sq in range(1, T[T_LEN + lane]):
            if out[base + lane * lmax + sq] == 0:
                if keep:
                    out[n] = lane * lmax + sq
                n += 1
    return n


@compiled
def next_to(T, la, sa, lb, sb):
    mine = sa % T[T_LEN + la]
    theirs = sb % T[T_LEN + lb]
    if la == lb:
        return theirs == (mine + 1) % T[T_LEN + la]
    if abs(la - lb) != 1:
        return False
    a_to_b = alongside(T, la, mine, lb) % T[T_LEN + lb]
    b_to_a = alongside(T, lb, theirs, la) % T[T_LEN + la]
    return a_to_b == theirs or b_to_a == mine


@compiled
def candidates(G, T, ref, out):
    """Pieces a push or fall effect may choose, into ``out``; their number."""
    a = active_piece(G)
    if not on_course(G, a):
        return 0
    e = eff_at(T, ref)
    mode, want_lane, within, near = T[e + 1], T[e + 2], T[e + 3], T[e + 4]
    team = G[S_TEAM]
    al, as_ = G[BOARD + B_LANE + a], G[BOARD + B_S + a]
    n = 0
    for p in range(4 * T[T_TEAMS]):
        if p == a or not on_course(G, p):
            continue
        pl, ps = G[BOARD + B_LANE + p], G[BOARD + B_S + p]
        if on_line(T, pl, ps):
            continue
        if mode == 1 and p // 4 != team:
            continue
        if mode == 2 and p // 4 == team:
            continue
        if want_lane >= 0 and pl != want_lane:
            continue
        if within >= 0:
            length = T[T_LEN + pl]
            square = ps % length
            reference = alongside(T, al, as_, pl) % length
            d = abs(square - reference) % length
            if min(d, length - d) > within:
                continue
        if near != 0 and not next_to(T, al, as_, pl, ps):
            continue
        out[n] = p
        n += 1
    return n


@compiled
def victims(G, T, out):
    n = 0
    for t in range(T[T_TEAMS]):
        if t != G[S_TEAM] and hand_size(G, t) > 0:
            out[n] = t
            n += 1
    return n


@compiled
def effect_possible(G, T, ref, scratch):
    e = eff_at(T, ref)
    prim = T[e]
    skip = G[S_SKIP] != 0
    if prim == PR_ROLL_MODIFIER or prim == PR_EXTRA_DIE or prim == PR_FREE_LANE:
        return not skip
    if prim == PR_REROLL:
        return not skip
    if prim == PR_SKIP_MOVE:
        return True
    if prim == PR_MOVE:
        return on_course(G, active_piece(G)) and not skip
    if prim == PR_PUSH or prim == PR_FALL:
        return candidates(G, T, ref, scratch) > 0
    if prim == PR_DISCARD_CARD or prim == PR_STEAL_CARD:
        return victims(G, T, scratch) > 0
    return True


@compiled
def fits(T, card, window):
    timing = T[T_CTIME + HAND * MAXC + card]
    return timing == TM_ANY or timing == window


@compiled
def playable_mask(G, T, window, scratch):
    team = G[S_TEAM]
    if G[BOARD + B_PLAYED + team] != 0:
        return 0
    mask = 0
    for c in range(T[T_NCARD + HAND]):
        if G[BOARD + B_HAND + team * MAXC + c] == 0 or not fits(T, c, window):
            continue
        ok = True
        for k in range(T[T_CNEFF + HAND * MAXC + c]):
            if not effect_possible(G, T, (HAND * MAXC + c) * MAXE + k, scratch):
                ok = False
                break
        if ok:
            mask |= 1 << c
    return mask


@compiled
def queue_effects(G, T, deck, card):
    for k in range(T[T_CNEFF + deck * MAXC + card]):
        G[S_EFF + G[S_NEFF]] = (deck * MAXC + card) * MAXE + k
        G[S_NEFF] += 1


@compiled
def await_(G, kind, team, a, b):
    G[S_AW] = kind
    G[S_AWT] = team
    G[S_AWA] = a
    G[S_AWB] = b


@compiled
def ask_obstacle(G, T, E, count, scratch):
    if free_squares(G, T, scratch, False) > 0:
        await_(G, AW_OBST, G[S_TEAM], count, 0)
    else:
        event(G, E, EV_OBSTACLE_LOST, 0, 0, 0)


@compiled
def discard_from(G, E, team, card):
    discard_card(G, team, card)
    event(G, E, EV_DISCARD, team, card, 0)


@compiled
def hit(G, T, E, F, ref, p):
    e = eff_at(T, ref)
    if T[e] == PR_PUSH:
        run_op(G, T, E, F, OP_PUSH, p // 4, p % 4, T[e + 5])
    else:
        run_op(G, T, E, F, OP_FALL, p // 4, p % 4, 0)


@compiled
def rob(G, T, E, ref, victim):
    if T[eff_at(T, ref)] == PR_STEAL_CARD:
        await_(G, AW_STEAL, G[S_TEAM], victim, 0)
    elif hand_size(G, victim) == 1:
        mask = hand_mask(G, victim)
        card = 0
        while (mask >> card) & 1 == 0:
            card += 1
        discard_from(G, E, victim, card)
    else:
        await_(G, AW_DISCARD, victim, -1, 0)


@compiled
def run_effect(G, T, E, F, ref, scratch):
    e = eff_at(T, ref)
    prim = T[e]
    if prim == PR_ROLL_MODIFIER:
        m = G[S_NMOD]
        G[S_MOD + 2 * m] = T[e + 1]
        G[S_MOD + 2 * m + 1] = T[e + 2]
        G[S_NMOD] = m + 1
    elif prim == PR_EXTRA_DIE:
        G[S_EXTRA] += T[e + 1]
    elif prim == PR_FREE_LANE:
        G[S_FREE] = 1
    elif prim == PR_SKIP_MOVE:
        G[S_SKIP] = 1
    elif prim == PR_REROLL:
        if G[S_NDICE] > 0:
            await_(G, AW_ROLL, -1, G[S_NDICE], 1)
    elif prim == PR_PLACE_OBSTACLE:
        ask_obstacle(G, T, E, T[e + 1], scratch)
    elif prim == PR_MOVE:
        a = active_piece(G)
        if on_course(G, a) and G[S_SKIP] == 0:
            points = T[e + 1]
            if T[e + 2] != 0 and G[BOARD + B_LANE + a] == OUTER:
                points += T[T_TAIL]
            run_op(G, T, E, F, OP_WALK, G[S_TEAM], G[S_ACTIVE], points)
    elif prim == PR_PUSH or prim == PR_FALL:
        n = candidates(G, T, ref, scratch)
        if n == 1:
            hit(G, T, E, F, ref, scratch[0])
        elif n > 1:
            await_(G, AW_TARGET, G[S_TEAM], ref, 0)
    elif prim == PR_DISCARD_CARD or prim == PR_STEAL_CARD:
        n = victims(G, T, scratch)
        if n == 1:
            rob(G, T, E, ref, scratch[0])
        elif n > 1:
            await_(G, AW_VICTIM, G[S_TEAM], ref, 0)


# ===== the turn program ================================================================


@compiled
def begin_draw(G, T, E, deck):
    total = 0
    for c in range(MAXC):
        total += G[BOARD + B_DECK + deck * MAXC + c]
    if total == 0:
        for c in range(MAXC):
            G[BOARD + B_DECK + deck * MAXC + c] = G[BOARD + B_DISC + deck * MAXC + c]
            total += G[BOARD + B_DISC + deck * MAXC + c]
            G[BOARD + B_DISC + deck * MAXC + c] = 0
        event(G, E, EV_RESHUFFLE, deck, 0, 0)
    if total == 0:
        event(G, E, EV_NO_CARD, deck, 0, 0)
        return
    await_(G, AW_DRAW, -1, deck, 0)


@compiled
def window(G, T, w):
    if G[S_SKIP] != 0 and w != TM_BEFORE_ROLL:
        return
    team = G[S_TEAM]
    if hand_size(G, team) == 0 or G[BOARD + B_PLAYED + team] != 0:
        return
    if T[T_WINFIT + w] == 0:
        return
    await_(G, AW_WINDOW, team, w, 0)


@compiled
def run_step(G, T, E, F, step, scratch):
    team = G[S_TEAM]
    if step == 0:  # begin
        G[S_NDICE] = 0
        G[S_NRER] = 0
        G[S_EXTRA] = 0
        G[S_NMOD] = 0
        G[S_FREE] = 0
        G[S_SKIP] = 0
        G[S_LCOST] = 0
        G[S_MOVOVER] = 0
        if G[S_TURNS] == 0 and T[T_PENALTY] > 0:
            G[S_MOD] = -T[T_PENALTY]
            G[S_MOD + 1] = 1
            G[S_NMOD] = 1
        for t in range(4):
            G[BOARD + B_PLAYED + t] = 0
        done = True
        for i in range(3):
            if G[BOARD + B_FIN + team * 4 + i] == 0:
                done = False
        if done:
            G[S_ACTIVE] = HELM
            return
        index = G[S_NEXTP + team]
        while G[BOARD + B_FIN + team * 4 + index] != 0:
            index = (index + 1) % 3
        G[S_ACTIVE] = index
        G[S_NEXTP + team] = (index + 1) % 3
    elif step == 1:  # enter
        lane = G[BOARD + B_LANE + active_piece(G)]
        if G[S_ACTIVE] == HELM:
            if lane < 0:
                await_(G, AW_START, team, 1, 0)
        elif T[T_CATCHUP] != 0 and lane >= 0 and furthest_behind(G, T) == team:
            begin_draw(G, T, E, T[T_COL + lane])
    elif step == 2:  # draw
        p = active_piece(G)
        lane = G[BOARD + B_LANE + p]
        if G[S_ACTIVE] == HELM or lane < 0:
            return
        begin_draw(G, T, E, T[T_COL + lane])
    elif step == 3:
        window(G, T, TM_BEFORE_ROLL)
    elif step == 4:  # roll
        if G[S_SKIP] != 0 or not on_course(G, active_piece(G)):
            return
        await_(G, AW_ROLL, -1, 1 + G[S_EXTRA], 0)
    elif step == 5:
        window(G, T, TM_AFTER_ROLL)
    elif step == 6:  # lane
        if G[S_SKIP] != 0 or not on_course(G, active_piece(G)):
            return
        if lane_options(G, T, scratch) == 0:
            return
        await_(G, AW_LANE, team, 0, 0)
    elif step == 7:
        window(G, T, TM_AFTER_LANE)
    elif step == 8:  # walk
        p = active_piece(G)
        if G[S_SKIP] != 0 or G[S_MOVOVER] != 0 or not on_course(G, p) or G[S_NDICE] == 0:
            return
        points = roll_value(G) - G[S_LCOST]
        if points > 0 and G[BOARD + B_LANE + p] == OUTER:
            points += T[T_TAIL]
        if points > 0:
            run_op(G, T, E, F, OP_WALK, team, G[S_ACTIVE], points)
    elif step == 9:
        window(G, T, TM_AFTER_WALK)
    elif step == 10:  # helmsman's draw
        if G[S_ACTIVE] == HELM:
            begin_draw(G, T, E, HAND)
    else:  # end
        G[S_TURNS] += 1
        G[S_TEAM] = turn_team(T, G[S_TURNS])
        G[S_STEP] = 0
        if G[S_TURNS] % T[T_TEAMS] == 0 and G[S_TURNS] >= T[T_CAP]:
            G[S_OVER] = 1
            event(G, E, EV_TURN_CAP, 0, 0, 0)


@compiled
def opening_draw(G, T, E, team):
    """:meth:`splash.games.bash.state.BashState._opening_draw` (BV05)."""
    while team < T[T_TEAMS]:
        G[S_TEAM] = team
        begin_draw(G, T, E, HAND)
        if G[S_AW] != AW_NONE:
            return
        team += 1
    G[S_TEAM] = 0


@compiled
def advance(G, T, E, F, scratch):
    while G[S_OVER] == 0 and G[S_AW] == AW_NONE and G[S_PEND] == 0:
        if G[S_ERR] != 0:
            return
        if G[S_NEFF] > 0:
            ref = G[S_EFF]
            n = G[S_NEFF]
            for i in range(n - 1):
                G[S_EFF + i] = G[S_EFF + i + 1]
            G[S_NEFF] = n - 1
            run_effect(G, T, E, F, ref, scratch)
            continue
        step = G[S_STEP]
        G[S_STEP] = step + 1
        run_step(G, T, E, F, step, scratch)


@compiled
def take_card(G, T, team, card):
    G[BOARD + B_HAND + team * MAXC + card] += 1
    if hand_size(G, team) > T[T_HANDLIM]:
        await_(G, AW_DISCARD, team, card, 0)


@compiled
def apply(G, T, E, F, action, scratch):
    """Apply ``action`` (an id among the legal ones) and run the turn on to the next question."""
    dec = T_A_OBST + 3 * T[T_LMAX]
    kind = T[dec + 3 * action]
    a = T[dec + 3 * action + 1]
    b = T[dec + 3 * action + 2]
    G[BOARD + B_EVLEN] = 0
    if G[S_PEND] != 0:
        if G[S_NANS] >= MAXANS:
            G[S_ERR] = ERR_ANSWERS
            return
        restore(G, T, opsnap(T))
        G[S_ANS + G[S_NANS]] = -1 if kind == AK_PASS else a
        G[S_NANS] += 1
        execute(G, T, E, F)
        advance(G, T, E, F, scratch)
        return
    aw = G[S_AW]
    awt, awa = G[S_AWT], G[S_AWA]
    G[S_AW] = AW_NONE
    team = G[S_TEAM]
    if aw == AW_START:
        if awa == 1:
            p = active_piece(G)
            place(G, p, a, 0)
            event(G, E, EV_ENTER, p, a, 0)
        else:
            p = team * 4 + G[S_SETUP]
            place(G, p, a, start_square(G, T, p, a))
            G[S_SETUP] += 1
            if G[S_SETUP] < HELM:
                await_(G, AW_START, team, 0, 0)
            else:
                G[S_SETUP] = 0
                G[S_TEAM] = (team + 1) % T[T_TEAMS]
                if G[S_TEAM] != 0:
                    await_(G, AW_START, G[S_TEAM], 0, 0)
                elif T[T_OPENING] > 0:
                    opening_draw(G, T, E, 1)
    elif aw == AW_DRAW:
        deck, card = a, b
        G[BOARD + B_DECK + deck * MAXC + card] -= 1
        event(G, E, EV_DRAW, team, deck, card)
        if T[T_CTIME + deck * MAXC + card] == TM_ON_DRAW:
            G[BOARD + B_DISC + deck * MAXC + card] += 1
            queue_effects(G, T, deck, card)
        else:
            take_card(G, T, team, card)
            if G[S_STEP] == 0:
                opening_draw(G, T, E, team + 1)
    elif aw == AW_ROLL:
        if G[S_AWB] == 1:
            G[S_RER + G[S_NRER]] = a
            G[S_NRER] += 1
        else:
            G[S_DICE + G[S_NDICE]] = a
            G[S_NDICE] += 1
        event(G, E, EV_ROLL, a, 0, 0)
        left = awa - 1
        if left > 0:
            await_(G, AW_ROLL, -1, left, G[S_AWB])
        elif G[S_AWB] == 1:
            await_(G, AW_KEEP, team, 0, 0)
    elif aw == AW_STEAL:
        discard_card(G, awa, a)
        G[BOARD + B_DISC + HAND * MAXC + a] -= 1
        event(G, E, EV_STEAL, team, awa, a)
        take_card(G, T, team, a)
    elif aw == AW_WINDOW:
        if kind == AK_PLAY:
            discard_card(G, team, a)
            G[BOARD + B_PLAYED + team] = 1
            event(G, E, EV_PLAY, team, a, 0)
            queue_effects(G, T, HAND, a)
    elif aw == AW_LANE:
        if kind == AK_CHANGE:
            n = lane_options(G, T, scratch)
            for i in range(n):
                if scratch[2 * i] == a:
                    G[S_LCOST] = scratch[2 * i + 1]
            run_op(G, T, E, F, OP_CHLANE, team, G[S_ACTIVE], a)
    elif aw == AW_DISCARD:
        discard_from(G, E, awt, a)
    elif aw == AW_OBST:
        G[BOARD + B_OBS + a * T[T_LMAX] + b] = 1
        event(G, E, EV_OBSTACLE, a, b, 0)
        if awa > 1:
            ask_obstacle(G, T, E, awa - 1, scratch)
    elif aw == AW_TARGET:
        hit(G, T, E, F, awa, a * 4 + b)
    elif aw == AW_VICTIM:
        rob(G, T, E, awa, a)
    elif aw == AW_KEEP:
        if a == 1:
            n = G[S_NRER]
            for i in range(n):
                G[S_DICE + i] = G[S_RER + i]
            G[S_NDICE] = n
        G[S_NRER] = 0
    advance(G, T, E, F, scratch)


# ===== what may happen now ==============================================================


@compiled
def to_act(G):
    if G[S_OVER] != 0:
        return TERMINAL
    if G[S_PEND] != 0:
        return G[S_QTEAM]
    aw = G[S_AW]
    if aw == AW_DRAW or aw == AW_ROLL or aw == AW_STEAL:
        return CHANCE
    return G[S_AWT]


@compiled
def sort_pairs(ids, weights, n):
    for i in range(1, n):
        x, w = ids[i], weights[i]
        j = i - 1
        while j >= 0 and ids[j] > x:
            ids[j + 1] = ids[j]
            weights[j + 1] = weights[j]
            j -= 1
        ids[j + 1] = x
        weights[j + 1] = w


@compiled
def legal(G, T, ids, weights, scratch):
    """The legal actions (or chance outcomes with their integer weights), sorted by id."""
    n = 0
    if G[S_OVER] != 0:
        return 0
    if G[S_PEND] != 0:
        opts = G[S_QOPTS]
        if G[S_QKIND] == Q_LIFEBUOY and opts & PASS_BIT:
            ids[n] = T[T_A_PASS]
            n += 1
        base = T_A_DISCARD if G[S_QKIND] == Q_DISCARD else T_A_PLAY
        for c in range(MAXC):
            if (opts >> c) & 1:
                ids[n] = T[base + c]
                n += 1
        for i in range(n):
            weights[i] = 1
        sort_pairs(ids, weights, n)
        return n
    aw = G[S_AW]
    if aw == AW_START:
        for lane in range(3):
            ids[n] = T[T_A_START + lane]
            n += 1
    elif aw == AW_DISCARD:
        holder, new = G[S_AWT], G[S_AWA]
        for c in range(MAXC):
            k = G[BOARD + B_HAND + holder * MAXC + c] - (1 if c == new else 0)
            if k > 0:
                ids[n] = T[T_A_DISCARD + c]
                n += 1
    elif aw == AW_OBST:
        m = free_squares(G, T, scratch, True)
        for i in range(m):
            ids[n] = T[T_A_OBST + scratch[i]]
            n += 1
    elif aw == AW_WINDOW:
        ids[n] = T[T_A_PASS]
        n += 1
        mask = playable_mask(G, T, G[S_AWA], scratch)
        for c in range(MAXC):
            if (mask >> c) & 1:
                ids[n] = T[T_A_PLAY + c]
                n += 1
    elif aw == AW_LANE:
        ids[n] = T[T_A_STAY]
        n += 1
        m = lane_options(G, T, scratch)
        for i in range(m):
            ids[n] = T[T_A_CHANGE + scratch[2 * i]]
            n += 1
    elif aw == AW_TARGET:
        m = candidates(G, T, G[S_AWA], scratch)
        for i in range(m):
            ids[n] = T[T_A_TARGET + scratch[i]]
            n += 1
    elif aw == AW_VICTIM:
        m = victims(G, T, scratch)
        for i in range(m):
            ids[n] = T[T_A_VICTIM + scratch[i]]
            n += 1
    elif aw == AW_KEEP:
        ids[0] = T[T_A_KEEP]
        ids[1] = T[T_A_KEEP + 1]
        n = 2
    elif aw == AW_ROLL:
        for f in range(T[T_FACES]):
            ids[n] = T[T_A_ROLL + f]
            weights[n] = 1
            n += 1
        return n
    elif aw == AW_DRAW:
        deck = G[S_AWA]
        for c in range(T[T_NCARD + deck]):
            k = G[BOARD + B_DECK + deck * MAXC + c]
            if k > 0:
                ids[n] = T[T_A_DRAW + deck * MAXC + c]
                weights[n] = k
                n += 1
        sort_pairs(ids, weights, n)
        return n
    elif aw == AW_STEAL:
        victim = G[S_AWA]
        for c in range(MAXC):
            k = G[BOARD + B_HAND + victim * MAXC + c]
            if k > 0:
                ids[n] = T[T_A_STEAL + c]
                weights[n] = k
                n += 1
        sort_pairs(ids, weights, n)
        return n
    for i in range(n):
        weights[i] = 1
    sort_pairs(ids, weights, n)
    return n


# ===== random numbers (the generator's state R lives beside the game, never in it) ======

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_ALL = np.uint64(0xFFFFFFFFFFFFFFFF)


@compiled
def next_u64(R):
    """SplitMix64."""
    R[0] += _GOLDEN
    z = R[0]
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@compiled
def seed_rng(R, seed):
    R[0] = np.uint64(seed)
    R[0] = next_u64(R)


@compiled
def below(R, n):
    """A uniform integer in ``[0, n)`` (rejection: no modulo bias)."""
    un = np.uint64(n)
    limit = _ALL - (_ALL % un)
    x = next_u64(R)
    while x >= limit:
        x = next_u64(R)
    return np.int64(x % un)


@compiled
def choose(R, ids, weights, n, chance):
    if not chance:
        return ids[below(R, n)]
    total = 0
    for i in range(n):
        total += weights[i]
    u = below(R, total)
    for i in range(n):
        u -= weights[i]
        if u < 0:
            return ids[i]
    return ids[n - 1]


# ===== counts and traces ===============================================================


@compiled
def count_action(G, T, E, C):
    """:class:`splash.sim.counters.BashCounter` for the action just applied."""
    C[C_ACTIONS] += 1
    if C[C_CHNEXT] == 0:
        C[C_DECISIONS] += 1
    C[C_CHNEXT] = 1 if to_act(G) == CHANCE else 0
    if G[S_PEND] == 0:
        length, starter, target = 0, -1, -1
        for k in range(G[BOARD + B_EVLEN]):
            kind, a, b, c = E[4 * k], E[4 * k + 1], E[4 * k + 2], E[4 * k + 3]
            C[C_EV + kind] += 1
            if kind == EV_BUMP:
                C[C_TEAM + (a // 4) * TB + TB_BM] += 1
                C[C_TEAM + (b // 4) * TB + TB_BS] += 1
            elif kind == EV_FALL:
                C[C_TEAM + (a // 4) * TB + TB_PF] += 1
            elif kind == EV_SLIP:
                C[C_TEAM + (a // 4) * TB + TB_OH] += 1
            elif kind == EV_DRAW:
                C[C_TEAM + a * TB + TB_DRAWN + b * MAXC + c] += 1
            elif kind == EV_PLAY:
                C[C_TEAM + a * TB + TB_PLAYED + b] += 1
            bump = kind == EV_BUMP
            if bump and length > 0 and a == target:
                length += 1
            else:
                if length >= 2:
                    C[C_TEAM + starter * TB + TB_CH] += 1
                C[C_LONG] = max(C[C_LONG], length)
                length = 1 if bump else 0
                starter = a // 4 if bump else -1
            target = b if bump else -1
        if length >= 2:
            C[C_TEAM + starter * TB + TB_CH] += 1
        C[C_LONG] = max(C[C_LONG], length)
    if G[S_OVER] != 0 or G[S_STEP] == 0:
        return
    if C[C_LT_TURNS] != G[S_TURNS] or C[C_LT_TEAM] != G[S_TEAM]:
        C[C_LT_TURNS] = G[S_TURNS]
        C[C_LT_TEAM] = G[S_TEAM]
        C[C_LCOUNTED] = 0
    p = active_piece(G)
    if C[C_LCOUNTED] == 0 and on_course(G, p):
        C[C_TEAM + G[S_TEAM] * TB + TB_LANE + G[BOARD + B_LANE + p]] += 1
        C[C_LCOUNTED] = 1


@compiled
def round4(v):
    """``round(v, 4)`` exactly as Python rounds a float: the decimal nearest to the exact
    binary value, ties to even (the product by 10,000 is kept exact, Dekker's two-product)."""
    a = abs(v)
    hi = a * 10000.0
    c = 134217729.0 * a
    ahi = c - (c - a)
    alo = a - ahi
    lo = (ahi * 10000.0 - hi) + alo * 10000.0
    n = np.floor(hi)
    if hi == n and lo < 0.0:
        n -= 1.0
    d = (hi - n - 0.5) + lo
    if d > 0.0 or (d == 0.0 and n % 2.0 == 1.0):
        n += 1.0
    r = n / 10000.0
    return -r if v < 0.0 else r


@compiled
def evaluate(G, T, out, at):
    """:func:`splash.sim.traces.bash_evaluation`, rounded to 4 decimals, into ``out[at:]``."""
    n = T[T_TEAMS]
    winner = G[BOARD + B_WIN]
    if G[S_OVER] != 0:
        for t in range(n):
            if winner < 0:
                out[at + t] = 0.0
            elif t == winner:
                out[at + t] = 1.0
            else:
                out[at + t] = round4(1.0 - 2.0 * ((1.0 + (n - 1.0 + 1.0) / 2.0) - 1.0) / (n - 1.0))
        return
    for t in range(n):
        total = 0.0
        for i in range(4):
            p = t * 4 + i
            if G[BOARD + B_FIN + p] != 0:
                total += 1.0
            elif G[BOARD + B_LANE + p] >= 0:
                share = G[BOARD + B_S + p] / total_of(T, G[BOARD + B_LANE + p], i == HELM)
                total += min(1.0, max(0.0, share))
        out[at + t] = round4(2.0 * (total / 4.0) - 1.0)


EC_AT = 3 * 4 * TEAMS_MAX
EC_VALID = EC_AT + 1
EC_SIZE = EC_AT + 2


@compiled
def evaluate_row(G, T, out, at, EC):
    """:func:`evaluate` of a game not over, copied from the previous row when no piece has
    moved, finished or restarted since (``EC`` holds those positions and that row)."""
    m = 4 * T[T_TEAMS]
    if EC[EC_VALID] != 0:
        same = True
        for p in range(m):
            if (
                EC[3 * p] != G[BOARD + B_FIN + p]
                or EC[3 * p + 1] != G[BOARD + B_LANE + p]
                or EC[3 * p + 2] != G[BOARD + B_S + p]
            ):
                same = False
                break
        if same:
            prev = EC[EC_AT]
            for t in range(T[T_TEAMS]):
                out[at + t] = out[prev + t]
            EC[EC_AT] = at
            return
    evaluate(G, T, out, at)
    for p in range(m):
        EC[3 * p] = G[BOARD + B_FIN + p]
        EC[3 * p + 1] = G[BOARD + B_LANE + p]
        EC[3 * p + 2] = G[BOARD + B_S + p]
    EC[EC_AT] = at
    EC[EC_VALID] = 1


@compiled
def started(G):
    return not (G[S_PEND] == 0 and G[S_AW] == AW_START and G[S_AWA] == 0)


# ===== the greedy bot (splash.bots.bash_greedy, compiled) ===============================
# The weights ``W`` (floats): the heuristic's weights in GREEDY_WEIGHTS order, the depth,
# the samples, then the value of holding each card kind of the high tide deck.

GW_RIVAL, GW_TIDE, GW_THREAT, GW_OBST, GW_SLIP, GW_EXACT, GW_HOLDLB, GW_HOLD = range(8)
GW_DEPTH = 8
GW_SAMPLES = 9
GW_CARD = 10
GW_SIZE = GW_CARD + MAXC
G_WIN = 1e6
G_TIE = 1e-9
G_THREAT_RANGE = 6
POLICY_RANDOM, POLICY_GREEDY = 0, 1

Work = namedtuple("Work", "D S A0 A1 I1 A2 I2 A3 I3")
"""The greedy bot's work arrays: the dice sums (2 rows), the scores, and a state copy and
an action list per level of its look-ahead."""


@njit(cache=True)
def new_work(nb, size, faces):
    """:data:`Work` for states of ``nb`` entries and lists of ``size`` ids."""
    return Work(
        np.zeros((2, faces * MAXDICE + faces + 2), np.float64),
        np.zeros(size, np.float64),
        np.zeros(nb, np.int64),
        np.zeros(nb, np.int64),
        np.zeros(size, np.int64),
        np.zeros(nb, np.int64),
        np.zeros(size, np.int64),
        np.zeros(nb, np.int64),
        np.zeros(size, np.int64),
    )


@compiled
def g_speed(T, lane):
    return (T[T_FACES] + 1) / 2.0 + (T[T_TAIL] if lane == OUTER else 0)


@compiled
def g_reach(T, lane):
    return T[T_FACES] + (T[T_TAIL] if lane == OUTER else 0)


@compiled
def g_progress(T, W, lane, s, helm):
    left = max(0, total_of(T, lane, helm) - s)
    if not helm:
        return left / g_speed(T, lane)
    if left == 0:
        return 0.0
    far = max(0, left - g_reach(T, lane))
    return far / g_speed(T, lane) + W[GW_EXACT]


@compiled
def g_fall_loss(G, T, W, p):
    if G[BOARD + B_LANE + p] != HIGH:
        return 0.0
    s = G[BOARD + B_S + p]
    helm = p % 4 == HELM
    after = g_progress(T, W, CENTRE, restart_s(T, HIGH, s), helm)
    return max(0.0, after - g_progress(T, W, HIGH, s, helm))


@compiled
def g_risk(G, T, W, p):
    s = G[BOARD + B_S + p]
    if G[BOARD + B_LANE + p] != HIGH or on_line(T, HIGH, s):
        return 0.0
    n = T[T_LEN + HIGH]
    square = s % n
    threats = 0
    for q in range(4 * T[T_TEAMS]):
        if q // 4 == p // 4 or not on_course(G, q):
            continue
        lane, qs = G[BOARD + B_LANE + q], G[BOARD + B_S + q]
        if on_line(T, lane, qs):
            continue
        d = abs(square - alongside(T, lane, qs, HIGH) % n) % n
        if min(d, n - d) <= G_THREAT_RANGE:
            threats += 1
    return g_fall_loss(G, T, W, p) * (W[GW_TIDE] + W[GW_THREAT] * threats)


@compiled
def g_obstacle_threat(G, T, W, p, lane, square):
    if not on_course(G, p) or G[BOARD + B_LANE + p] != lane:
        return 0.0
    n = T[T_LEN + lane]
    d = (square - G[BOARD + B_S + p] % n) % n
    reach = g_reach(T, lane)
    if d < 1 or d > reach:
        return 0.0
    chance = min(1.0, (reach + 1 - d) / T[T_FACES])
    loss = g_fall_loss(G, T, W, p) if lane == HIGH else W[GW_SLIP]
    return W[GW_OBST] * chance * loss


@compiled
def g_cost(G, T, W, team):
    total = 0.0
    for i in range(4):
        p = team * 4 + i
        helm = i == HELM
        if G[BOARD + B_FIN + p] != 0:
            continue
        lane = G[BOARD + B_LANE + p]
        if lane < 0:
            best = g_progress(T, W, 0, 0, helm)
            for other in range(1, 3):
                best = min(best, g_progress(T, W, other, 0, helm))
            total += best
            continue
        total += g_progress(T, W, lane, G[BOARD + B_S + p], helm)
        total += g_risk(G, T, W, p)
        exposure = 0.0
        for sq in range(T[T_LEN + lane]):
            if G[BOARD + B_OBS + lane * T[T_LMAX] + sq] != 0:
                exposure += g_obstacle_threat(G, T, W, p, lane, sq)
        total += exposure
    return total


@compiled
def g_card_value(G, W, team, seat):
    if team != seat:
        return hand_size(G, team) * W[GW_HOLD]
    total = 0.0
    for c in range(MAXC):
        total += G[BOARD + B_HAND + team * MAXC + c] * W[GW_CARD + c]
    return total


@compiled
def g_gain(G, T, W, p, lane, roll):
    for m in range(G[S_NMOD]):
        roll = max(G[S_MOD + 2 * m + 1], roll + G[S_MOD + 2 * m])
    if lane == OUTER and roll > 0:
        roll += T[T_TAIL]
    helm = p % 4 == HELM
    total = total_of(T, lane, helm)
    s0 = G[BOARD + B_S + p]
    s = s0 + roll
    if s > total and helm:
        s = max(0, 2 * total - s)
    return g_progress(T, W, lane, s0, helm) - g_progress(T, W, lane, min(s, total), helm)


@compiled
def g_sums(D, faces, dice):
    """The distribution of the sum of ``dice`` dice into ``D[0]`` (``D[1]``: scratch)."""
    top = faces * dice + 1
    for v in range(top):
        D[0, v] = 0.0
    D[0, 0] = 1.0
    hi = 0
    for _ in range(dice):
        for v in range(hi + faces + 1):
            D[1, v] = 0.0
        for v in range(hi + 1):
            q = D[0, v]
            if q == 0.0:
                continue
            for face in range(1, faces + 1):
                D[1, v + face] += q / faces
        hi += faces
        for v in range(hi + 1):
            D[0, v] = D[1, v]
    return hi + 1


@compiled
def g_dice_to_come(G, T, W, D):
    if G[S_AW] != AW_ROLL:
        return 0.0
    p = active_piece(G)
    lane = G[BOARD + B_LANE + p]
    if lane < 0:
        return 0.0
    faces = T[T_FACES]
    left = G[S_AWA]
    rolled = 0
    for i in range(G[S_NDICE]):
        rolled += G[S_DICE + i]
    if G[S_AWB] == 1:
        now = g_gain(G, T, W, p, lane, rolled)
        m = g_sums(D, faces, left)
        total = 0.0
        for v in range(m):
            if D[0, v] > 0.0:
                total += D[0, v] * max(now, g_gain(G, T, W, p, lane, v))
        return total
    if G[S_NDICE] + left <= 1:
        return 0.0
    plain = 0.0
    for v in range(1, faces + 1):
        plain += g_gain(G, T, W, p, lane, v) / faces
    m = g_sums(D, faces, left)
    more = 0.0
    for v in range(m):
        if D[0, v] > 0.0:
            more += D[0, v] * g_gain(G, T, W, p, lane, v + rolled)
    return more - plain


@compiled
def g_evaluate(G, T, W, seat, D):
    """The heuristic's score of ``G`` for team ``seat`` (higher is better)."""
    winner = G[BOARD + B_WIN]
    if winner >= 0:
        return G_WIN if winner == seat else -G_WIN
    n = T[T_TEAMS]
    rivals = 0.0
    own = 0.0
    for t in range(n):
        c = g_cost(G, T, W, t) - g_card_value(G, W, t, seat)
        if t == seat:
            own = c
        else:
            rivals += c
    if G[S_TEAM] == seat:
        own -= g_dice_to_come(G, T, W, D)
    return W[GW_RIVAL] * (rivals / max(1, n - 1)) - own


@compiled
def g_obstacle_gain(G, T, W, seat, action):
    dec = T_A_OBST + 3 * T[T_LMAX]
    lane, square = T[dec + 3 * action + 1], T[dec + 3 * action + 2]
    n = T[T_TEAMS]
    gain = 0.0
    for p in range(4 * n):
        if not on_course(G, p):
            continue
        threat = g_obstacle_threat(G, T, W, p, lane, square)
        if p // 4 == seat:
            gain -= threat
        else:
            gain += W[GW_RIVAL] * threat / max(1, n - 1)
    return gain


@compiled
def g_obstacle_choice(G):
    return G[S_PEND] == 0 and G[S_AW] == AW_OBST


@compiled
def g_reaction(G, T, W, ids, m):
    """Another team's answer in the look-ahead: a lifebuoy is played, the least valuable
    card discarded."""
    dec = T_A_OBST + 3 * T[T_LMAX]
    if G[S_QKIND] == Q_LIFEBUOY:
        for i in range(m):
            if T[dec + 3 * ids[i]] == AK_PLAY:
                return ids[i]
        return ids[0]
    best = ids[0]
    value = W[GW_CARD + T[dec + 3 * best + 1]]
    for i in range(1, m):
        v = W[GW_CARD + T[dec + 3 * ids[i] + 1]]
        if v < value:
            best, value = ids[i], v
    return best


@compiled
def g_settle(G, T, E, F, W, seat, ids, weights, scratch):
    """Forced steps and other teams' reactions, up to a real decision or chance."""
    while G[S_ERR] == 0:
        team = to_act(G)
        if team < 0:
            return
        m = legal(G, T, ids, weights, scratch)
        if m == 0:
            G[S_ERR] = ERR_LIST
            return
        if m == 1:
            apply(G, T, E, F, ids[0], scratch)
        elif team != seat and G[S_PEND] != 0:
            apply(G, T, E, F, g_reaction(G, T, W, ids, m), scratch)
        else:
            return


@compiled
def g_child(G, C, T, E, F, W, seat, action, ids, weights, scratch):
    """``C`` := ``G`` after ``action`` and :func:`g_settle`; whether ``seat`` decides next."""
    for i in range(G.shape[0]):
        C[i] = G[i]
    apply(C, T, E, F, action, scratch)
    g_settle(C, T, E, F, W, seat, ids, weights, scratch)
    return to_act(C) == seat and C[S_ERR] == 0


@compiled
def g_best1(G, ids, m, T, E, F, W, seat, weights, scratch, D, A1, I1):
    """The best score of ``ids`` in ``G`` looking through one decision."""
    best = -np.inf
    base = g_evaluate(G, T, W, seat, D) if g_obstacle_choice(G) else 0.0
    for j in range(m):
        if g_obstacle_choice(G):
            v = base + g_obstacle_gain(G, T, W, seat, ids[j])
        else:
            g_child(G, A1, T, E, F, W, seat, ids[j], I1, weights, scratch)
            v = g_evaluate(A1, T, W, seat, D)
        best = max(best, v)
    return best


@compiled
def g_after2(G, action, T, E, F, W, seat, weights, scratch, D, A1, I1, A2, I2):
    if not g_child(G, A1, T, E, F, W, seat, action, I1, weights, scratch):
        return g_evaluate(A1, T, W, seat, D)
    m = legal(A1, T, I1, weights, scratch)
    return g_best1(A1, I1, m, T, E, F, W, seat, weights, scratch, D, A2, I2)


@compiled
def g_best2(G, ids, m, T, E, F, W, seat, weights, scratch, D, A1, I1, A2, I2):
    best = -np.inf
    base = g_evaluate(G, T, W, seat, D) if g_obstacle_choice(G) else 0.0
    for j in range(m):
        if g_obstacle_choice(G):
            v = base + g_obstacle_gain(G, T, W, seat, ids[j])
        else:
            v = g_after2(G, ids[j], T, E, F, W, seat, weights, scratch, D, A1, I1, A2, I2)
        best = max(best, v)
    return best


@compiled
def g_after3(G, action, T, E, F, W, seat, weights, scratch, D, A1, I1, A2, I2, A3, I3):
    if not g_child(G, A1, T, E, F, W, seat, action, I1, weights, scratch):
        return g_evaluate(A1, T, W, seat, D)
    m = legal(A1, T, I1, weights, scratch)
    return g_best2(A1, I1, m, T, E, F, W, seat, weights, scratch, D, A2, I2, A3, I3)


@compiled
def g_redeal(G, T, R, seat, pool):
    """Every other team's hand redrawn from the cards ``seat`` cannot see (the high tide
    deck and those hands), each keeping its size; during a question, in the snapshot the
    movement is replayed from."""
    at = opsnap(T) if G[S_PEND] != 0 else BOARD
    n = T[T_TEAMS]
    total = 0
    for c in range(MAXC):
        k = G[at + B_DECK + HAND * MAXC + c]
        for t in range(n):
            if t != seat:
                k += G[at + B_HAND + t * MAXC + c]
        pool[c] = k
        total += k
    for t in range(n):
        if t == seat:
            continue
        size = 0
        for c in range(MAXC):
            size += G[at + B_HAND + t * MAXC + c]
            G[at + B_HAND + t * MAXC + c] = 0
        for _ in range(size):
            u = below(R, total)
            for c in range(MAXC):
                if u < pool[c]:
                    G[at + B_HAND + t * MAXC + c] += 1
                    pool[c] -= 1
                    total -= 1
                    break
                u -= pool[c]
    for c in range(MAXC):
        G[at + B_DECK + HAND * MAXC + c] = pool[c]


@compiled
def greedy_choose(
    G, T, E, F, R, W, seat, ids, n, weights, scratch, D, S, A0, A1, I1, A2, I2, A3, I3, redeal=True
):
    """The greedy bot's choice among the legal ``ids[:n]`` of ``seat`` in ``G``: each action
    scored in a copy whose hidden hands are redrawn (``W[GW_SAMPLES]`` times), ties broken by
    ``R``; the scores are left in ``S[:n]``.  Reads nothing ``seat`` may not see: the hidden
    cards are redrawn first (``redeal`` False scores ``G`` itself, for tests)."""
    if n == 1:
        return ids[0]
    # The look-ahead applies actions with ``E`` as its events: keep the events the game has
    # so far (a pending question's provisional ones, which its answer goes on from).
    kept = G[BOARD + B_EVLEN]
    if G[S_PEND] != 0:
        kept = max(kept, G[opsnap(T) + B_EVLEN])
    for i in range(4 * kept):
        E[EV_KEEP + i] = E[i]
    choice = _greedy_pick(
        G, T, E, F, R, W, seat, ids, n, weights, scratch, D, S, A0, A1, I1, A2, I2, A3, I3, redeal
    )
    for i in range(4 * kept):
        E[i] = E[EV_KEEP + i]
    return choice


@compiled
def _greedy_pick(
    G, T, E, F, R, W, seat, ids, n, weights, scratch, D, S, A0, A1, I1, A2, I2, A3, I3, redeal
):
    samples = int(W[GW_SAMPLES])
    depth = int(W[GW_DEPTH])
    for j in range(n):
        S[j] = 0.0
    for _ in range(samples):
        for i in range(G.shape[0]):
            A0[i] = G[i]
        if redeal:
            g_redeal(A0, T, R, seat, scratch)
        obstacle = g_obstacle_choice(A0)
        base = g_evaluate(A0, T, W, seat, D) if obstacle else 0.0
        for j in range(n):
            if obstacle:
                S[j] += base + g_obstacle_gain(A0, T, W, seat, ids[j])
            elif depth >= 3:
                S[j] += g_after3(
                    A0, ids[j], T, E, F, W, seat, weights, scratch, D, A1, I1, A2, I2, A3, I3
                )
            elif depth == 2:
                S[j] += g_after2(A0, ids[j], T, E, F, W, seat, weights, scratch, D, A1, I1, A2, I2)
            else:
                g_child(A0, A1, T, E, F, W, seat, ids[j], I1, weights, scratch)
                S[j] += g_evaluate(A1, T, W, seat, D)
    best = S[0]
    for j in range(1, n):
        best = max(best, S[j])
    ties = 0
    for j in range(n):
        if S[j] >= best - G_TIE * samples:
            ties += 1
    pick = below(R, ties)
    for j in range(n):
        if S[j] >= best - G_TIE * samples:
            if pick == 0:
                return ids[j]
            pick -= 1
    return ids[n - 1]


# ===== games and playouts ==============================================================


@compiled
def play_one(
    G, T, E, F, C, R, EC, ids, weights, scratch, alog, apos, tbuf, tpos, lids, lofs, lpos, P, W, X
):
    """Play the game in ``G`` to its end, team ``t`` with the policy ``P[t]`` (random or
    greedy, weights ``W``, work arrays ``X``); ``-1`` when a buffer is full, else ``(apos,
    tpos, lpos)`` packed into ``scratch[0:3]`` and 0."""
    n = T[T_TEAMS]
    verify = lofs.shape[0] > 0
    while G[S_OVER] == 0:
        if G[S_ERR] != 0:
            return -2
        k = legal(G, T, ids, weights, scratch)
        if k == 0:
            G[S_ERR] = ERR_LIST
            return -2
        if apos >= alog.shape[0] or tpos + n > tbuf.shape[0]:
            return -1
        if verify:
            if lpos + k > lids.shape[0]:
                return -1
            for i in range(k):
                lids[lpos + i] = ids[i]
            lpos += k
            lofs[apos + 1] = lpos
        seat = to_act(G)
        if seat >= 0 and started(G):
            evaluate_row(G, T, tbuf, tpos, EC)
            tpos += n
            C[C_MOVES] += 1
        action = -1
        # ``W is None`` (random play only) is known when compiling: the greedy code is then
        # not compiled at all.
        if W is not None:
            if seat >= 0 and P[seat] == POLICY_GREEDY:
                action = greedy_choose(
                    G,
                    T,
                    E,
                    F,
                    R,
                    W,
                    seat,
                    ids,
                    k,
                    weights,
                    scratch,
                    X.D,
                    X.S,
                    X.A0,
                    X.A1,
                    X.I1,
                    X.A2,
                    X.I2,
                    X.A3,
                    X.I3,
                )
        if action < 0:
            action = choose(R, ids, weights, k, seat == CHANCE)
        alog[apos] = action
        apos += 1
        apply(G, T, E, F, action, scratch)
        count_action(G, T, E, C)
    if tpos + n > tbuf.shape[0]:
        return -1
    if C[C_MOVES] > 0:
        evaluate(G, T, tbuf, tpos)
        tpos += n
    scratch[0] = apos
    scratch[1] = tpos
    scratch[2] = lpos
    return 0


@njit(cache=True)
def play_batch(T, G0, seeds, start, alog, aoff, tbuf, toff, counts, finals, lids, lofs, P, W):
    """Games ``start …`` of ``seeds`` from ``G0``, team ``t`` played by the policy ``P[t]``
    (:data:`POLICY_RANDOM` or :data:`POLICY_GREEDY` with the weights ``W``); returns the index of the first game that
    did not fit in the buffers (``len(seeds)`` when all did), or ``-1 - g`` when game ``g``
    broke a limit of the core."""
    nb = G0.shape[0]
    G = np.empty(nb, np.int64)
    E = np.zeros(EV_BUFFER, np.int64)
    F = np.zeros((MAXFR, FRW), np.int64)
    C = np.zeros(C_SIZE, np.int64)
    R = np.zeros(1, np.uint64)
    EC = np.zeros(EC_SIZE, np.int64)
    size = 6 * T[T_LMAX] + 64
    ids = np.zeros(size, np.int64)
    weights = np.zeros(size, np.int64)
    scratch = np.zeros(size, np.int64)
    X = new_work(nb, size, T[T_FACES])
    apos = aoff[start]
    tpos = toff[start]
    lpos = lofs[apos] if lofs.shape[0] > 0 else 0
    for g in range(start, seeds.shape[0]):
        G[:] = G0
        C[:] = 0
        C[C_LT_TURNS] = -1
        C[C_LT_TEAM] = -1
        EC[EC_VALID] = 0
        seed_rng(R, seeds[g])
        status = play_one(
            G,
            T,
            E,
            F,
            C,
            R,
            EC,
            ids,
            weights,
            scratch,
            alog,
            apos,
            tbuf,
            tpos,
            lids,
            lofs,
            lpos,
            P,
            W,
            X,
        )
        if status == -1:
            return g
        if status == -2:
            counts[g, C_SIZE] = G[S_ERR]
            return -1 - g
        apos, tpos, lpos = scratch[0], scratch[1], scratch[2]
        aoff[g + 1] = apos
        toff[g + 1] = tpos
        counts[g, :C_SIZE] = C
        counts[g, C_SIZE] = G[BOARD + B_WIN]
        counts[g, C_SIZE + 1] = G[S_TURNS]
        if finals.shape[0] > 0:
            finals[g, :] = G
    return seeds.shape[0]


@njit(cache=True)
def playouts(T, G0, seeds, results):
    """One random playout from ``G0`` per seed; ``results[k, t]`` is team ``t``'s return."""
    n = T[T_TEAMS]
    G = np.empty(G0.shape[0], np.int64)
    E = np.zeros(EV_BUFFER, np.int64)
    F = np.zeros((MAXFR, FRW), np.int64)
    R = np.zeros(1, np.uint64)
    size = 6 * T[T_LMAX] + 64
    ids = np.zeros(size, np.int64)
    weights = np.zeros(size, np.int64)
    scratch = np.zeros(size, np.int64)
    for k in range(seeds.shape[0]):
        G[:] = G0
        seed_rng(R, seeds[k])
        while G[S_OVER] == 0 and G[S_ERR] == 0:
            m = legal(G, T, ids, weights, scratch)
            if m == 0:
                G[S_ERR] = ERR_LIST
                break
            action = choose(R, ids, weights, m, to_act(G) == CHANCE)
            apply(G, T, E, F, action, scratch)
        if G[S_ERR] != 0:
            results[k, 0] = G[S_ERR]
            return -1 - k
        winner = G[BOARD + B_WIN]
        for t in range(n):
            if winner < 0:
                results[k, t] = 0.0
            elif t == winner:
                results[k, t] = 1.0
            else:
                results[k, t] = -1.0 / (n - 1)
    return seeds.shape[0]


@njit(cache=True)
def greedy_decide(T, G0, W, seed, scores, redeal):
    """The greedy bot's choice in ``G0`` for the team to act, its generator seeded with
    ``seed``, the legal ids' scores in ``scores`` (in id order); ``-1`` when no team is to
    act (chance, or the game is over)."""
    seat = to_act(G0)
    if seat < 0:
        return -1
    nb = G0.shape[0]
    G = G0.copy()
    E = np.zeros(EV_BUFFER, np.int64)
    F = np.zeros((MAXFR, FRW), np.int64)
    R = np.zeros(1, np.uint64)
    size = 6 * T[T_LMAX] + 64
    ids = np.zeros(size, np.int64)
    weights = np.zeros(size, np.int64)
    scratch = np.zeros(size, np.int64)
    X = new_work(nb, size, T[T_FACES])
    seed_rng(R, seed)
    n = legal(G, T, ids, weights, scratch)
    if n == 0:
        return -1
    choice = greedy_choose(
        G,
        T,
        E,
        F,
        R,
        W,
        seat,
        ids,
        n,
        weights,
        scratch,
        X.D,
        X.S,
        X.A0,
        X.A1,
        X.I1,
        X.A2,
        X.I2,
        X.A3,
        X.I3,
        redeal,
    )
    if n == 1:
        X.S[0] = 0.0
    for j in range(min(n, scores.shape[0])):
        scores[j] = X.S[j]
    return choice


# ===== information-set MCTS (splash.bots.ismcts on the core) =============================
# The search's settings ``Q`` (floats, IQ_* below).  Its tree: one row of ``N`` per edge
# (key, child node or -1, next edge of the same node or -1, visits, availability) with the
# edge's total value in ``V``; ``first[node]`` is the node's first edge (-1: none).  An edge
# of a decision is keyed by the action id, an edge of a chance event by what the observer
# sees of the outcome (the id, or one of the IS_OBS_* keys when it cannot see the card).

IQ_ITER, IQ_EXPLORE, IQ_DEPTH, IQ_SCALE, IQ_ROLLOUT, IQ_EPS, IQ_EVAL, IQ_WIDEN = range(8)
IQ_SIZE = 8
ROLL_RANDOM, ROLL_GREEDY, ROLL_NONE = 0, 1, 2
EVAL_PROGRESS, EVAL_GREEDY = 0, 1
N_KEY, N_CHILD, N_NEXT, N_VISITS, N_AVAIL = range(5)
N_WIDTH = 5
IS_OBS_DRAW = -1  # another team drew a high tide card
IS_OBS_STEAL = -2  # a steal the observer takes no part in
IS_GREEDY_SCALE = 3.0  # team turns of the greedy heuristic's gain that make tanh(1)
IS_STATS = 3  # per root action: id, visits, total value


@compiled
def is_progress(G, T, out):
    """Each team's share of its whole race already run (``splash.games.bash.summary.team_progress``)."""
    for t in range(T[T_TEAMS]):
        run = 0.0
        weight = 0.0
        for i in range(4):
            p = t * 4 + i
            helm = i == HELM
            laps = T[T_HLAPS] if helm else T[T_LAPS]
            weight += laps
            lane = G[BOARD + B_LANE + p]
            if G[BOARD + B_FIN + p] != 0:
                run += laps
            elif lane >= 0:
                run += laps * G[BOARD + B_S + p] / total_of(T, lane, helm)
        out[t] = run / weight


@compiled
def is_leads(G, T, out, tmp):
    """Each team's progress less the best other team's (``team_leads``)."""
    n = T[T_TEAMS]
    is_progress(G, T, tmp)
    for t in range(n):
        best = -1e300
        for o in range(n):
            if o != t:
                best = max(best, tmp[o])
        out[t] = tmp[t] - best


@compiled
def is_values(G, T, W, Q, base, out, tmp, D):
    """Each team's value in [-1, 1] where an iteration stopped: the returns of a finished
    game, else the gain since the root by the progress or the greedy heuristic."""
    n = T[T_TEAMS]
    if G[S_OVER] != 0:
        winner = G[BOARD + B_WIN]
        for t in range(n):
            if winner < 0:
                out[t] = 0.0
            elif t == winner:
                out[t] = 1.0
            else:
                out[t] = -1.0 / (n - 1)
        return
    if int(Q[IQ_EVAL]) == EVAL_GREEDY:
        for t in range(n):
            out[t] = np.tanh((g_evaluate(G, T, W, t, D) - base[t]) / IS_GREEDY_SCALE)
        return
    is_leads(G, T, out, tmp)
    scale = Q[IQ_SCALE]
    for t in range(n):
        out[t] = max(-1.0, min(1.0, scale * (out[t] - base[t])))


@compiled
def is_observed(G, seat, action):
    """What ``seat`` sees of the chance outcome ``action`` in ``G`` (``_observed``)."""
    aw = G[S_AW]
    if aw == AW_DRAW and G[S_AWA] == HAND and G[S_TEAM] != seat:
        return IS_OBS_DRAW
    if aw == AW_STEAL and seat != G[S_TEAM] and seat != G[S_AWA]:
        return IS_OBS_STEAL
    return action


@compiled
def is_find(N, first, node, key):
    e = first[node]
    while e >= 0:
        if N[e, N_KEY] == key:
            return e
        e = N[e, N_NEXT]
    return -1


@compiled
def is_add(N, V, first, U, node, key):
    """A new edge ``key`` of ``node`` (``U[0]``: edges used, ``U[1]``: nodes used)."""
    e = U[0]
    U[0] += 1
    N[e, N_KEY] = key
    N[e, N_CHILD] = -1
    N[e, N_NEXT] = first[node]
    N[e, N_VISITS] = 0
    N[e, N_AVAIL] = 0
    V[e] = 0.0
    first[node] = e
    return e


@compiled
def is_child(N, first, U, e):
    """The node below edge ``e``, made when new."""
    c = N[e, N_CHILD]
    if c < 0:
        c = U[1]
        U[1] += 1
        first[c] = -1
        N[e, N_CHILD] = c
    return c


@compiled
def is_select(N, V, first, U, R, Q, node, ids, m, slots, untried):
    """The index in ``ids[:m]`` of the action to follow at ``node`` and its edge: an untried
    one drawn at random while any is left (with progressive widening, only while the node's
    tried actions are fewer than ``IQ_WIDEN * visits ** 0.5 + 1``), else UCB on availability."""
    n_untried = 0
    tried = 0
    visits = 0
    for j in range(m):
        e = is_find(N, first, node, ids[j])
        slots[j] = e
        if e < 0:
            untried[n_untried] = j
            n_untried += 1
        else:
            N[e, N_AVAIL] += 1
            tried += 1
            visits += N[e, N_VISITS]
    widen = Q[IQ_WIDEN]
    if n_untried > 0 and (tried == 0 or widen <= 0.0 or tried < widen * np.sqrt(visits) + 1.0):
        j = untried[below(R, n_untried)]
        e = is_add(N, V, first, U, node, ids[j])
        N[e, N_AVAIL] = 1
        slots[j] = e
        return j
    c = Q[IQ_EXPLORE]
    best = -1
    best_score = -np.inf
    for j in range(m):
        e = slots[j]
        if e < 0:
            continue
        v = N[e, N_VISITS]
        if v == 0:
            return j
        score = V[e] / v + c * np.sqrt(np.log(N[e, N_AVAIL]) / v)
        if score > best_score:
            best = j
            best_score = score
    return best


@compiled
def is_rollout_action(G, T, E, F, R, W, Q, actor, ids, m, weights, scratch, X):
    """The rollout policy's action among ``ids[:m]`` for ``actor``: random, or the compiled
    greedy (on the determinization as it is) with a random action at rate ``IQ_EPS``."""
    if int(Q[IQ_ROLLOUT]) == ROLL_GREEDY:
        eps = Q[IQ_EPS]
        if eps <= 0.0 or below(R, 1 << 30) >= eps * (1 << 30):
            return greedy_choose(
                G,
                T,
                E,
                F,
                R,
                W,
                actor,
                ids,
                m,
                weights,
                scratch,
                X.D,
                X.S,
                X.A0,
                X.A1,
                X.I1,
                X.A2,
                X.I2,
                X.A3,
                X.I3,
                False,
            )
    return ids[below(R, m)]


@compiled
def is_iterate(
    G,
    T,
    E,
    F,
    R,
    W,
    Q,
    seat,
    base,
    vals,
    tmp,
    ids,
    weights,
    scratch,
    slots,
    untried,
    N,
    V,
    first,
    U,
    path,
    X,
):
    """One iteration on the determinization ``G``: select and expand in the tree, roll out
    until the game ends or ``IQ_DEPTH`` actions were applied, back up each team's value into
    the edges it chose.  0, or -1 when the core broke a limit (``G[S_ERR]``)."""
    node = 0
    in_tree = True
    steps = 0
    depth = int(Q[IQ_DEPTH])
    policy = int(Q[IQ_ROLLOUT])
    for _ in range(depth):
        if G[S_OVER] != 0:
            break
        actor = to_act(G)
        m = legal(G, T, ids, weights, scratch)
        if m == 0:
            G[S_ERR] = ERR_LIST
            return -1
        if actor == CHANCE:
            action = choose(R, ids, weights, m, True)
            if in_tree:
                key = is_observed(G, seat, action)
                e = is_find(N, first, node, key)
                if e < 0:
                    e = is_add(N, V, first, U, node, key)
                node = is_child(N, first, U, e)
        elif in_tree:
            j = is_select(N, V, first, U, R, Q, node, ids, m, slots, untried)
            e = slots[j]
            action = ids[j]
            path[steps, 0] = e
            path[steps, 1] = actor
            steps += 1
            if N[e, N_VISITS] == 0:
                in_tree = False
            else:
                node = is_child(N, first, U, e)
        else:
            if policy == ROLL_NONE:
                break
            action = is_rollout_action(G, T, E, F, R, W, Q, actor, ids, m, weights, scratch, X)
        apply(G, T, E, F, action, scratch)
        if G[S_ERR] != 0:
            return -1
    is_values(G, T, W, Q, base, vals, tmp, X.D)
    for i in range(steps):
        e = path[i, 0]
        N[e, N_VISITS] += 1
        V[e] += vals[path[i, 1]]
    return 0


@njit(cache=True)
def ismcts_decide(T, G0, W, Q, seed, stats):
    """The search's choice for the team to act in ``G0`` (``IQ_ITER`` iterations, each on a
    determinization whose other hands are redrawn from what the team cannot see, so the
    choice reads nothing the team may not see); each root action's id, visits and total
    value in ``stats`` rows.  ``-1`` when no team is to act, ``-2 - code`` when the core
    broke a limit (``code``: the ``ERR_*``)."""
    seat = to_act(G0)
    if seat < 0:
        return -1
    nb = G0.shape[0]
    n = T[T_TEAMS]
    G = G0.copy()
    E = np.zeros(EV_BUFFER, np.int64)
    F = np.zeros((MAXFR, FRW), np.int64)
    R = np.zeros(1, np.uint64)
    size = 6 * T[T_LMAX] + 64
    ids = np.zeros(size, np.int64)
    weights = np.zeros(size, np.int64)
    scratch = np.zeros(size, np.int64)
    slots = np.zeros(size, np.int64)
    untried = np.zeros(size, np.int64)
    pool = np.zeros(MAXC, np.int64)
    X = new_work(nb, size, T[T_FACES])
    base = np.zeros(n, np.float64)
    vals = np.zeros(n, np.float64)
    tmp = np.zeros(n, np.float64)
    seed_rng(R, seed)
    m = legal(G, T, ids, weights, scratch)
    root = ids[:m].copy()
    for j in range(min(m, stats.shape[0])):
        stats[j, 0] = root[j]
        stats[j, 1] = 0
        stats[j, 2] = 0
    if m == 1:
        return root[0]
    iterations = int(Q[IQ_ITER])
    depth = int(Q[IQ_DEPTH])
    greedy_eval = int(Q[IQ_EVAL]) == EVAL_GREEDY
    if not greedy_eval:
        is_leads(G0, T, base, tmp)
    cap = min(iterations * (depth + 1), 1 << 15) + 2 * depth + 4
    N = np.zeros((cap, N_WIDTH), np.int64)
    V = np.zeros(cap, np.float64)
    first = np.full(cap, -1, np.int64)
    U = np.zeros(2, np.int64)
    U[1] = 1
    path = np.zeros((depth + 1, 2), np.int64)
    for _ in range(iterations):
        if U[0] + depth + 2 > N.shape[0] or U[1] + depth + 2 > first.shape[0]:
            grown = 2 * N.shape[0]
            N2 = np.zeros((grown, N_WIDTH), np.int64)
            N2[: N.shape[0]] = N
            N = N2
            V2 = np.zeros(grown, np.float64)
            V2[: V.shape[0]] = V
            V = V2
            f2 = np.full(grown, -1, np.int64)
            f2[: first.shape[0]] = first
            first = f2
        G[:] = G0
        g_redeal(G, T, R, seat, pool)
        if greedy_eval:
            for t in range(n):
                base[t] = g_evaluate(G, T, W, t, X.D)
        status = is_iterate(
            G,
            T,
            E,
            F,
            R,
            W,
            Q,
            seat,
            base,
            vals,
            tmp,
            ids,
            weights,
            scratch,
            slots,
            untried,
            N,
            V,
            first,
            U,
            path,
            X,
        )
        if status < 0:
            return -2 - G[S_ERR]
    best = root[0]
    best_visits = -1
    best_mean = -np.inf
    for j in range(m):
        e = is_find(N, first, 0, root[j])
        visits = 0
        total = 0.0
        if e >= 0:
            visits = N[e, N_VISITS]
            total = V[e]
        if j < stats.shape[0]:
            stats[j, 1] = visits
            stats[j, 2] = total
        mean = total / visits if visits > 0 else -np.inf
        if visits > best_visits or (visits == best_visits and mean > best_mean):
            best = root[j]
            best_visits = visits
            best_mean = mean
    return best
