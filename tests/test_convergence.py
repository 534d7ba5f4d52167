"""One convention for what kernels and solvers report (``repro.errors``): a kernel's status
code becomes a named exception through :func:`check_status`; a solver that stops at its
iteration limit warns :class:`ConvergenceWarning` (a ``UserWarning`` users can filter), and
the warning changes nothing that was computed."""
import warnings

import numpy as np
import pytest

from repro.data.synthetic import make_queries
from repro.errors import ConvergenceWarning, DataError, check_status, warn_at_limit
from repro.rankers.conditional import ConditionalRanker
from repro.rankers.cutting_plane import CuttingPlaneRankSVM, simplex_qp
from repro.rankers.domination import DominationRank
from repro.rankers.dorm import DORM
from repro.rankers.ranksvm import RankSVM
from repro.rankers.svmmap import SVMMAP
from repro.run.timing import single_thread_blas


@pytest.fixture(autouse=True)
def _one_blas_thread():
    with single_thread_blas():
        yield


# --- kernel status codes ------------------------------------------------------------------------

def test_check_status_returns_results_and_names_each_failure():
    assert check_status(0, "k.f") == 0
    assert check_status(17, "k.f") == 17                   # a count is a result
    assert check_status(2.5, "k.f") == 2.5                 # so is an objective
    with pytest.raises(ValueError, match=r"^k\.f: inconsistent array shapes"):
        check_status(-1, "k.f")
    with pytest.raises(ValueError, match="inconsistent array shapes"):
        check_status(-1.0, "k.f")                          # a float kernel's -1
    with pytest.raises(MemoryError, match=r"^k\.f: out of memory"):
        check_status(-2, "k.f")
    with pytest.raises(RuntimeError, match="unexpected status -9"):
        check_status(-9, "k.f")


def test_a_wrappers_own_codes_come_first_and_the_rest_keep_the_convention():
    def own(code):
        return DataError(f"problem {-code - 3} is infeasible") if code <= -3 else None
    with pytest.raises(DataError, match="problem 4 is infeasible"):
        check_status(-7, "k.f", own)
    with pytest.raises(MemoryError):
        check_status(-2, "k.f", own)                       # own() gave None: the convention
    assert check_status(3, "k.f", own) == 3                # never called on a result


def test_wrappers_map_kernel_failures_through_the_convention():
    from repro.rankers.assignment import linear_assignment, linear_assignment_batch
    forbidden = np.array([[np.inf, np.inf], [1.0, 2.0]])
    with pytest.raises(DataError, match=r"^cost: the cost matrix is infeasible"):
        linear_assignment(forbidden)
    with pytest.raises(DataError, match=r"^costs\[1\]: the cost matrix is infeasible"):
        linear_assignment_batch([np.eye(2), forbidden])
    from repro._kernels import pair_counting as kern
    from repro.rankers.pair_counting import check_status as pc_status
    bad = kern.sort_within_queries(np.zeros(3), np.array([0, 3], dtype=np.int64),
                                   np.zeros(2, dtype=np.int64), np.zeros(3, dtype=np.int64))
    with pytest.raises(ValueError, match=r"^pair_counting\.sort_within_queries: inconsistent"):
        pc_status(bad, "sort_within_queries")


# --- non-convergence ----------------------------------------------------------------------------

def test_convergence_warning_is_a_user_warning_that_filters_can_silence():
    assert issubclass(ConvergenceWarning, UserWarning)
    with pytest.warns(ConvergenceWarning, match=r"^S stopped at max_iter \(3 iterations\)"):
        warn_at_limit("S", "max_iter", 3)
    with pytest.warns(ConvergenceWarning, match="max_sweeps.*gap 2 > 1"):
        warn_at_limit("S", "max_sweeps", 3, "gap 2 > 1")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warn_at_limit("S", "converged", 3)                 # only an iteration limit warns
        warn_at_limit("S", "f < -1e32", 3)                 # (TRON's safeguards do not)
        warnings.filterwarnings("ignore", category=ConvergenceWarning)
        warn_at_limit("S", "max_iter", 3)                  # silenced by category


def data(seed=0):
    return make_queries(6, (4, 9), 5, seed=seed)


# each solver with an iteration limit: (constructor at the limit, constructor that converges)
SOLVERS = {
    "TRON (RankSVM)": (lambda: RankSVM(C=1.0, eps=1e-12, max_iter=1),
                       lambda: RankSVM(C=1.0, eps=1e-3)),
    "BMRM (cutting plane)": (lambda: CuttingPlaneRankSVM(C=1.0, eps=1e-9, max_iter=2),
                             lambda: CuttingPlaneRankSVM(C=1.0, eps=1e-3)),
    "SVM-MAP": (lambda: SVMMAP(C=1.0, eps=1e-9, max_iter=1),
                lambda: SVMMAP(C=1.0, eps=1e-3)),
    "n-slack (DORM)": (lambda: DORM(C=1.0, eps=1e-9, max_iter=1),
                       lambda: DORM(C=1.0, eps=1e-2)),
    "L-BFGS (conditional)": (lambda: ConditionalRanker("ConvexLoss", "NDCG", sample_size=20,
                                                         max_iter=1, tol=1e-12),
                               lambda: ConditionalRanker("ConvexLoss", "NDCG", sample_size=20,
                                                         tol=1e-3)),
    "coordinate descent": (lambda: DominationRank(lam=0.1, tol=0.0, max_iter=3),
                           lambda: DominationRank(lam=0.1)),
}


@pytest.mark.parametrize("name", list(SOLVERS))
def test_each_solver_warns_at_its_limit_and_the_warning_changes_nothing(name):
    at_limit, converging = SOLVERS[name]
    d = data()
    with pytest.warns(ConvergenceWarning, match="stopped at max_"):
        warned = at_limit().fit_data(d)
    assert warned.result_.status in ("max_iter", "max_sweeps")
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=ConvergenceWarning)
        quiet = at_limit().fit_data(d)
    assert np.array_equal(warned.coef_, quiet.coef_)      # the same numbers, warned or not
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        done = converging().fit_data(d)                    # a converged fit does not warn
    assert done.result_.status == "converged"


def test_the_warning_points_at_the_callers_line():
    with pytest.warns(ConvergenceWarning) as rec:
        RankSVM(C=1.0, eps=1e-12, max_iter=1).fit_data(data())
    assert all(not w.filename.endswith(("errors.py", "tron.py")) for w in rec)


def test_domination_path_reference_sweep_does_not_warn():
    """fit_grid's one-sweep cold solve (the reference decrease of the stopping rule) stops at
    max_sweeps on purpose: no warning; the path's own fits converge."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        fits = list(DominationRank().fit_grid(data(), {"lam": [1.0, 0.1]}))
    assert [m.result_.status for _, m in fits] == ["converged", "converged"]


def test_simplex_qp_warns_when_its_interior_point_method_runs_out():
    rng = np.random.default_rng(0)
    A = rng.normal(size=(6, 4))
    with pytest.warns(ConvergenceWarning, match="interior-point"):
        simplex_qp(A @ A.T, rng.normal(size=6), tol=0.0, max_iter=2)
