"""PAMIR (passive-aggressive on sampled triplets) against a replay of PA-I in plain NumPy, and
its triplet sampling against the distribution it should have."""
import numpy as np
import pytest
import scipy.sparse as sp

from reference_pamir import pa_replay
from repro.errors import DataError
from repro.rankers.pamir import RowData, pamir_models


def multilabel(seed, n=60, d=12, L=4, sparse=True):
    rng = np.random.default_rng(seed)
    X = rng.random((n, d)) * (rng.random((n, d)) < (0.3 if sparse else 1.0))
    X[5] = X[4]                                   # duplicate rows: v = 0 for that pair
    Y = rng.random((n, L)) < [0.1, 0.3, 0.5, 0.0][:L]
    Y[4, 0], Y[5, 0] = True, False
    return (sp.csr_matrix(X) if sparse else X), Y


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("C", [0.05, 10.0])
def test_updates_equal_pa1_replay(sparse, C):
    X, Y = multilabel(1, sparse=sparse)
    rec = np.zeros((3000, 2), dtype=np.int64)
    res = pamir_models(X, Y, 3000, C, seed=11, record=rec)
    model, row = res.entries[rec[:, 0]].T
    triplets = np.stack([model, row, rec[:, 1]], axis=1)
    assert np.all(Y[triplets[:, 1], triplets[:, 0]])
    assert not np.any(Y[triplets[:, 2], triplets[:, 0]])
    np.testing.assert_allclose(res.W, pa_replay(X, triplets, C, Y.shape[1]), rtol=1e-10,
                               atol=1e-12)
    assert list(res.trained) == [True, True, True, False]        # model 3: no relevant instance
    assert np.all(res.W[3] == 0)
    assert 0 < res.n_updates <= 3000


def test_sampling_is_uniform_over_entries_and_negatives():
    X, Y = multilabel(2, n=40, L=3)
    n_iter = 60000
    rec = np.zeros((n_iter, 2), dtype=np.int64)
    res = pamir_models(X, Y, n_iter, 1.0, seed=3, record=rec)
    n_ent = res.entries.shape[0]
    assert n_ent == Y.sum()
    counts = np.bincount(rec[:, 0], minlength=n_ent)
    expected = n_iter / n_ent
    assert np.all(np.abs(counts - expected) < 5 * np.sqrt(expected))
    # the non-relevant instance is uniform among the model's negatives (model 0: rare positives)
    m0 = res.entries[rec[:, 0], 0] == 2
    neg = np.flatnonzero(~Y[:, 2])
    c = np.bincount(rec[m0, 1], minlength=Y.shape[0])[neg]
    e = m0.sum() / neg.size
    assert np.all(np.abs(c - e) < 5 * np.sqrt(e))


def test_seeded_and_reproducible():
    X, Y = multilabel(3)
    a = pamir_models(X, Y, 500, 1.0, seed=5).W
    b = pamir_models(X, Y, 500, 1.0, seed=5).W
    c = pamir_models(X, Y, 500, 1.0, seed=6).W
    g = pamir_models(X, Y, 500, 1.0, seed=np.random.default_rng(0)).W
    assert np.array_equal(a, b) and not np.array_equal(a, c) and g.shape == a.shape


def test_bad_input():
    X, Y = multilabel(5)
    with pytest.raises(DataError, match="seed"):
        pamir_models(X, Y, 10, 1.0, seed=None)
    with pytest.raises(DataError, match="C"):
        pamir_models(X, Y, 10, 0.0, seed=1)
    with pytest.raises(DataError, match="n_iter"):
        pamir_models(X, Y, -1, 1.0, seed=1)
    with pytest.raises(DataError, match="Y"):
        pamir_models(X, Y[:5], 10, 1.0, seed=1)
    with pytest.raises(DataError, match="no model"):
        pamir_models(X, np.zeros_like(Y), 10, 1.0, seed=1)
    with pytest.raises(DataError, match="not finite"):
        Xd = X.toarray()
        Xd[3, 2] = np.nan
        RowData.from_matrix(Xd)


@pytest.mark.parametrize("sparse", [False, True])
def test_models_fitted_in_parts_are_the_joint_runs(sparse):
    """``models=``: each part replays the joint run's random stream and applies its models'
    updates only, so disjoint parts give every model the joint run's weights, bit for bit."""
    X, Y = multilabel(7, n=80, L=4, sparse=sparse)
    Y[:, 3] = np.arange(80) % 3 == 0
    joint = pamir_models(X, Y, 4000, 0.5, seed=21)
    a = pamir_models(X, Y, 4000, 0.5, seed=21, models=[0, 2])
    b = pamir_models(X, Y, 4000, 0.5, seed=21, models=np.array([1, 3]))
    for part, mine in ((a, [0, 2]), (b, [1, 3])):
        others = [m for m in range(4) if m not in mine]
        assert np.array_equal(part.W[mine], joint.W[mine])
        assert np.all(part.W[others] == 0) and not part.trained[others].any()
    assert a.n_updates + b.n_updates == joint.n_updates
    with pytest.raises(DataError, match="models"):
        pamir_models(X, Y, 10, 1.0, seed=1, models=[4])


def test_renumbering_leaves_the_input_alone_and_matches_the_natural_order():
    """The kernel reads sparse rows with features renumbered by frequency (a copy): the
    caller's matrix is unchanged and the weights come back in the natural numbering — the
    dense rows of the same data give the same weights up to rounding."""
    X, Y = multilabel(8, n=70, d=30)
    before = (X.data.copy(), X.indices.copy(), X.indptr.copy())
    Ws = pamir_models(X, Y, 3000, 1.0, seed=4).W
    assert all(np.array_equal(u, v) for u, v in zip(before, (X.data, X.indices, X.indptr)))
    Wd = pamir_models(X.toarray(), Y, 3000, 1.0, seed=4).W
    np.testing.assert_allclose(Ws, Wd, rtol=1e-10, atol=1e-12)
    Wn = pamir_models(X, Y, 3000, 1.0, seed=4, renumber=False).W        # the natural order
    np.testing.assert_allclose(Ws, Wn, rtol=1e-10, atol=1e-12)
    assert np.abs(Ws).sum() > 0


@pytest.mark.parametrize("sparse", [False, True])
def test_chunks_applied_model_by_model_are_the_stream_order_bit_for_bit(sparse):
    """The kernel draws a chunk of triplets, then applies them model by model: a model's
    update touches its own weights only, so every chunk size (1: each triplet as it is
    drawn; one not dividing the iterations; more than them) gives the same bits, the same
    record and the same number of updates — also when only some models are fitted."""
    X, Y = multilabel(9, n=80, d=25, sparse=sparse)
    n_iter = 2500
    runs = {}
    for chunk in (1, 7, 256, 10_000):
        rec = np.zeros((n_iter, 2), dtype=np.int64)
        runs[chunk] = (pamir_models(X, Y, n_iter, 0.5, seed=13, record=rec, chunk=chunk), rec)
    W1, rec1 = runs[1][0].W, runs[1][1]
    assert np.abs(W1).sum() > 0
    for chunk, (res, rec) in runs.items():
        assert np.array_equal(res.W, W1), chunk
        assert np.array_equal(rec, rec1) and res.n_updates == runs[1][0].n_updates
    part = pamir_models(X, Y, n_iter, 0.5, seed=13, models=[2], chunk=7)
    assert np.array_equal(part.W[2], W1[2]) and not part.W[[0, 1, 3]].any()
    with pytest.raises(DataError, match="chunk"):
        pamir_models(X, Y, 10, 1.0, seed=1, chunk=0)
