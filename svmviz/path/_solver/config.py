"""Named constants of the ν-SVM path solver: status codes, the reasons a path is lost, every tolerance.

One place per number, each with the reason for its value (in the manner of stumpy's ``config.py``).
The compiled functions read them as module globals, which numba freezes into the compiled code; the package
keys numba's cache on all its sources (:mod:`svmviz.path._solver`), so an edit here recompiles them.

Scales. The numbers of the ν-problem (``s = Gα``, the thresholds, the gradients of the derivative
QP) are bounded by ``max_i G_ii · max(λ, 1)`` (``|s_i| ≤ max G_ii · λ``); relative tolerances ``r`` act
on that scale, ``r · max G_ii · max(λ, 1)`` (:func:`svmviz.path._solver.kkt.kkt_tol`). ``tol`` is the
caller's relative tolerance (default 1e-9, :func:`svmviz.path.nu_path`); the factors below scale it.

The sections look alike (a comment, then ``NAME = value``: ``duplicates`` pairs them by shape):
each line is a different number with its own reason, read by different kernels — deliberately
not one table or routine, so that every value stays next to the sentence that justifies it.
"""
from __future__ import annotations

# ----------------------------------------------------------------------------------------------
# Result codes (module-level ints: numba reads them as compile-time constants)
# ----------------------------------------------------------------------------------------------
STATUS_OK = 0  # follow_path reached λ_max
STATUS_MAX_BREAKPOINTS = 1  # stopped at the caller's cap on the number of breakpoints
STATUS_LOST = 2  # the KKT conditions could not be kept; ``reason`` says why

# Why a path was lost (follow_path's ``reason``; LOST_NONE when it was not)
LOST_NONE = 0
LOST_NO_PIVOT = 1
LOST_WORKING_SET = 2
LOST_DIRECTION_SOLVE = 3
LOST_DIRECTION_RESIDUAL = 4
LOST_NO_PROGRESS = 5
LOST_CORRECTION = 6

LOST_REASONS = {  # Python side: the words of svmviz.path's ConvergenceWarning
    LOST_NO_PIVOT: "a class has no point that can enter the margin",
    LOST_WORKING_SET: "the KKT matrix of the working set could not be rebuilt",
    LOST_DIRECTION_SOLVE: "the active-set direction solve did not converge",
    LOST_DIRECTION_RESIDUAL: "the direction's residual stayed large after a refactorization",
    LOST_NO_PROGRESS: "no progress in λ (degenerate cycling)",
    LOST_CORRECTION: "the Simple-ν-SVM correction could not restore the KKT conditions",
}

# The active-set QP (asqp.asqp)
QP_OK = 0
QP_MAX_ITER = 1  # max_iter iterations without reaching the optimum
QP_NUMERICAL = 2  # the working-set solve broke down even after a refactorization

# One leave-one-out refit (loo.loo_refits's ``status``)
LOO_OK = 0
LOO_QP_FAILED = 1  # the fallback active-set solve did not converge
LOO_NUMERICAL = 2  # the fallback active-set solve broke down

NO_POINT = -1  # an index that names no point (no point skipped, no blocking variable)

# ----------------------------------------------------------------------------------------------
# The bordered KKT inverse (kkt.py)
# ----------------------------------------------------------------------------------------------
# A point whose Schur complement (the part of its G column that the working set does not explain)
# is below DEP_TOL of its diagonal G_jj is linearly dependent and does not enter W. An exactly
# dependent column (duplicated points, a linear kernel's rank) comes out as rounding, ε = 2.2e-16
# times the growth of the updated inverse: DEP_TOL leaves five orders of magnitude for that growth.
DEP_TOL = 1e-11
# After a breakdown of the direction solve W is rebuilt with this tolerance: nearly dependent counts
# as dependent. A Schur complement of 1e-8 G_jj inflates the inverse by ~1e8, so a solve through it
# keeps ~8 of 16 digits — about where DIRECTION_RESIDUAL_RTOL (1e-6) starts failing. On the
# direction's last retry the active-set QP's own additions to W are tested with it as well
# (follower._direction).
DEP_TOL_RETRY = 1e-8
# The last retry (kkt.rebuild_working_set_pivoted) adds points largest Schur complement first and stops
# where a Schur complement (relative to its diagonal) is below DEP_NOISE_FACTOR·ε·κ, κ ≈ max|M|·max|M⁻¹|
# the condition of the bordered matrix so far: computed through that inverse it carries an error of
# ~ε·κ, and below 100 times that its size says nothing (usvc_B n = 500, σ = 0.2, seed 2: exact
# Schur complements 4e-11 … 5e-14 were read as above DEP_TOL_RETRY once κ passed 1e11).
DEP_NOISE_FACTOR = 100.0
EPS = 2.220446049250313e-16  # float64's machine epsilon
# Guards against dividing by an exact zero (a removal's pivot, a relative error of all-zero terms):
# only an exact zero or an underflow is refused — an inaccurate but nonzero pivot is caught later by
# the residual checks, which can refactorize.
TINY = 1e-300

# ----------------------------------------------------------------------------------------------
# The active-set QP (asqp.py)
# ----------------------------------------------------------------------------------------------
# Iterative refinement of each working-set solve against the true bordered matrix: each pass gains
# the digits the inverse has (all of them for a fresh inverse); four passes recover a solve from an
# inverse accurate to ~4 digits, and the best iterate is kept should a pass diverge.
# Refining only where the direction's residual on W (free from G·d) is large is left out: the
# derivative QP solved unrefined, continued with refined solves when its residual
# exceeded 1e-12 of the scale, was 1.16× faster at m = 500 (1.05× at 1000; with 1e-14 the gate fired
# almost always: 0.8×), but its unrefined solves take another route of pivots that ends elsewhere
# within the pricing tolerance (tol·max G_ii): esl σ = 3 and 8 ended with 357 and 323 breakpoints
# instead of 414 and 350, KKT gaps rose from 1e-17 to 1e-12 — where a rounding-level change that
# keeps the route (MINV_REFRESH_EVERY 255) moves the breakpoints by at most 2e-9.
REFINE_PASSES = 4
# ... stopping when the relative residual reaches the rounding of its terms (~50 ε).
REFINE_TARGET = 1e-14
# The leave-one-out homotopy does not refine: each leave-i-out result is checked against the KKT
# conditions (LOO_KKT_ACCEPT) and refitted by the active set if it fails.
LOO_REFINE_PASSES = 0
# The class sums of a computed direction must hold to DIRECTION_SUM_RTOL of its size
# (max(1, max |d|)); exact in exact arithmetic, so a larger error means the updated inverse has
# drifted: it is refactorized (kkt.minv_refresh) and the solve repeated. 1e-9 is the accuracy the path keeps
# (its default tol) with 7 digits of margin above rounding.
DIRECTION_SUM_RTOL = 1e-9

# ----------------------------------------------------------------------------------------------
# Events and the step (events.py) — shared by the path, the LOO homotopy and the active set
# ----------------------------------------------------------------------------------------------
# A component of a direction below DIRECTION_TINY times the largest one is rounding noise of its
# solve (~50 ε): it neither blocks a step nor snaps its point to a bound (noise components would
# make zero-length steps).
DIRECTION_TINY = 1e-14
# Events within htol = STEP_SNAP_RTOL·max(1, h) + STEP_SNAP_ATOL·max(1, scale of the path
# parameter) of the step's end are the same event: every point reaching its bound or its g = 0
# inside that window moves with the step (ties, duplicated points). The parameter itself carries
# ~steps·ε of rounding (~1e-13 after a thousand steps: ATOL sits above it); an event's position
# x/d carries the relative error of the direction (RTOL).
STEP_SNAP_RTOL = 1e-10
STEP_SNAP_ATOL = 1e-12
# A member of W that ends a step within BOX_SNAP of its bound (and whose event fell in the window)
# is put exactly on it: it is off by |dα/dλ|·htol, htol ≈ 1e-10 for steps and λ of order 1, so
# 1e-9 covers |dα/dλ| up to about 10; a point missed stays in W and meets its bound one tiny step on.
BOX_SNAP = 1e-9
# Zero-length steps in a row: at a λ where several events coincide each point can enter or leave W
# once without λ moving — about 2 per point; more than ZERO_STEPS_PER_POINT·m + ZERO_STEPS_SLACK
# in a row is cycling (the path is lost: LOST_NO_PROGRESS; a LOO refit falls back to the active set).
ZERO_STEPS_PER_POINT = 2
ZERO_STEPS_SLACK = 10

# ----------------------------------------------------------------------------------------------
# The path follower (follower.py)
# ----------------------------------------------------------------------------------------------
# First capacity of the breakpoint arrays, max(CAPACITY_MIN, CAPACITY_PER_POINT·m + CAPACITY_EXTRA);
# they grow by half when full (old and new arrays coexist while copying: growing by half keeps the
# peak nearer the final size than doubling; α takes T·m doubles). Measured breakpoints/m: banana
# (m = 120, 200, 500, 1000, 2000, 5000) 1.8, 2.3, 3.3, 4.2, 4.9, 6.3; ESL mixture (m = 100, 150) 3.0,
# 4.0; noisy moons with duplicates (m = 146) 3.4. CAPACITY_PER_POINT = 8 covers them all up to the
# largest m the path accepts (svmviz.path.MAX_N = 5000) in one allocation: the rows a path never
# reaches are never written, and pages never written take no memory (an anonymous mapping in
# small pages, follower._breakpoint_rows) —
# only address space. With 4, banana m = 5000 grows twice (20008 → 30012 → 45018 rows, 0.8 + 1.2 GB
# copied, each new page faulted in): about twice the minor page faults and system time of 8, at the
# same breakpoints and peak RSS. On a virtual machine a page fault costs more the busier the host,
# which makes the m = 5000 wall time swing.
CAPACITY_MIN = 64
# From BREAKPOINT_MAP_MIN_BYTES of capacity (CAPACITY_PER_POINT·m² doubles: m ≥ 1810) α's rows
# live in an anonymous mapping in 4 kB pages (follower._breakpoint_rows) and the path returns them
# as a view of it (no copy: 1.19 GB at banana m = 5000). Smaller, np.empty and a copy as before:
# numpy's huge pages fault in 2 MB at a time, cheaper there (banana m = 500 and 1000, fresh rows
# per path: 1.0–1.1× the path's CPU time in small pages; m = 2000 about even, 0.96–1.06×), and a
# kept view keeps a mapping of its
# own (a process holds at most vm.max_map_count = 65530; a study keeps many small paths).
BREAKPOINT_MAP_MIN_BYTES = 200 * 2**20
CAPACITY_PER_POINT = 8
CAPACITY_EXTRA = 8
# Thresholds that differ from where the last segment ended by more than THRESHOLD_JUMP_RTOL are a
# jump of b, ρ (a class without free points: its optimal threshold is an interval) and are recorded
# as a second breakpoint at the same λ; smaller differences are the rounding of t += h·dt.
THRESHOLD_JUMP_RTOL = 1e-7
# KKT violations up to KKT_CORRECT_FACTOR·tol are tolerated between corrections: ties are decided
# at tol·max(|s|, ...) and steps accumulate rounding; a violation 1e4 times that means the path was
# left, and costs a Simple-ν-SVM solve at the current λ.
KKT_CORRECT_FACTOR = 1e4
# After a correction each class must carry λ/2 to CORRECTION_SUM_RTOL (relative to max(1, λ)),
# else the correction failed (LOST_CORRECTION).
CORRECTION_SUM_RTOL = 1e-8
# Tie tolerance: tol·max(max |s|, TIE_SCALE_FLOOR·max G_ii·max(λ, 1)). Relative to s itself: near
# ρ ≈ 0 (data nearly separable in feature space, K nearly singular) s is orders of magnitude below
# max G_ii·λ, and a tolerance on that scale would let points that are not at their event move (the
# path would skip an event). The floor keeps ties decidable where s ≈ 0 (the start, f ≡ 0).
TIE_SCALE_FLOOR = 1e-3
# The direction must satisfy G d = dt on W to DIRECTION_RESIDUAL_RTOL·max G_ii·max(1, max |d|):
# its error then moves α by less than the KKT check tolerates (KKT_CORRECT_FACTOR·tol = 1e-5 at the
# default tol). A larger residual triggers one refactorization (kkt.minv_refresh), then LOST_DIRECTION_RESIDUAL.
DIRECTION_RESIDUAL_RTOL = 1e-6
# Diagnostic only (the n_dependent_skips output): a free or tied point left out of W as dependent
# whose dg/dλ is DEPENDENT_SKIP_FACTOR·tol beyond 0 (three orders above the tie tolerance).
DEPENDENT_SKIP_FACTOR = 1e3
# Every MINV_REFRESH_EVERY steps the bordered inverse is recomputed from scratch (O(|W|³),
# kkt.minv_refresh), removing the error that rank-one updates accumulate; between, every working-set
# solve is refined against K (REFINE_PASSES) and a drifted inverse is refreshed on demand (class sums
# off by DIRECTION_SUM_RTOL, direction residual above DIRECTION_RESIDUAL_RTOL). Every 64 steps cost
# 14 % of the path at m = 500; every 256 the path is 0.93× as long (same process, best of 5) and its
# breakpoints agree with every-64 to rounding (kernel expansions 1e-9 on 39 cases).
MINV_REFRESH_EVERY = 256
# After a step, a drift of g off 0 on E beyond SETTLE_DRIFT·max G_ii·max(λ, 1) (ties detected to a
# tolerance, nearly singular G_EE) is corrected by a warm-started Simple-ν-SVM solve before the
# breakpoint is recorded; 1e-12 is ~5000 ε, above the rounding of s.
SETTLE_DRIFT = 1e-12
# ... whose pricing tolerance is SETTLE_PRICE_FACTOR·tol: ten times tighter than the path checks, so
# that the corrected point is safely inside the tolerance.
SETTLE_PRICE_FACTOR = 0.1
# λ within LAMBDA_SNAP_RTOL (relative) of 2·#{α = 1} of a class without free points is set to that
# even integer (the class is then exactly full): the accumulated steps carry ~steps·ε of rounding,
# far below 1e-9, and even integers are 2 apart, so no wrong value is snapped to.
LAMBDA_SNAP_RTOL = 1e-9
# Class sums are put back to λ/2 exactly only when they are off by less than CLASS_SUM_FIX_RTOL
# (relative to max(1, λ/2)): snaps at a common step move them by up to ~1e-9; a larger difference
# is not rounding and is left for the KKT check to see.
CLASS_SUM_FIX_RTOL = 1e-6

# ----------------------------------------------------------------------------------------------
# Leave-one-out along the path (loo.py)
# ----------------------------------------------------------------------------------------------
# α within ALPHA_EPS of a bound counts as bound when a leave-i-out solution's thresholds are chosen
# (the homotopy's snaps leave α within BOX_SNAP of a bound).
ALPHA_EPS = 1e-9
# ρ below RHO_ZERO·max G_ii·max(λ, 1) is ρ = 0: the reduced convex hulls intersect, the ν-SVM's
# decision function is f ≡ 0 and its s = Gα is rounding noise. A leave-i-out solution there predicts
# ŷ_i = 0 (counted as an error), instead of a sign drawn from rounding.
RHO_ZERO = 1e-12
# A leave-one-out homotopy takes a handful of pieces; more than
# HOMOTOPY_STEPS_PER_POINT·m + HOMOTOPY_STEPS_SLACK is cycling: the active-set fallback refits.
HOMOTOPY_STEPS_PER_POINT = 4
HOMOTOPY_STEPS_SLACK = 20
# s = Gx is recomputed exactly every HOMOTOPY_EXACT_S_EVERY pieces (each piece updates it by an
# O(m) axpy whose rounding accumulates).
HOMOTOPY_EXACT_S_EVERY = 10
# A homotopy result is accepted if no KKT condition is violated by more than LOO_KKT_ACCEPT times
# the tie tolerance (the path's own accuracy, with room for the pieces' rounding); else refitted.
LOO_KKT_ACCEPT = 10.0
# Moving α_i's mass onto the other points of its class stops when less than MASS_RESIDUAL_RTOL
# (relative to max(1, λ/2)) is left to place: the rounding of the class sum.
MASS_RESIDUAL_RTOL = 1e-15
