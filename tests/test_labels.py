"""One label contract (repro.data.labels): non-negative integers, refused with the file and line
when there is one, by the rankers' fit and by the contract's own check; a ranker documenting
another contract (GainRegression: real targets) accepts what it documents."""
import numpy as np
import pytest

from repro.data.labels import check_labels, first_bad_label
from repro.errors import DataError
from repro.rankers import GainRegression, RankRLS


def test_the_contract_names_the_first_bad_label_and_why():
    assert first_bad_label([0, 1, 2, 4]) is None
    assert first_bad_label([0, 1.5, -1]) == (1, "is not an integer")
    assert first_bad_label([0, -1, 1.5]) == (1, "is negative")
    assert first_bad_label([0, np.nan]) == (1, "is not finite")
    assert first_bad_label([0.5, -2.0], contract="real") is None
    with pytest.raises(DataError, match=r"train.txt, line 7: label 1.5 is not an integer"):
        check_labels([0, 1.5], "train.txt", line_no=[3, 7])
    with pytest.raises(DataError, match=r"y, document 2: label -1 is negative"):
        check_labels([0, 1, -1])


@pytest.mark.parametrize("bad, why", [(1.5, "not an integer"), (-1.0, "negative"),
                                      (np.inf, "not finite")])
def test_rankers_refuse_labels_outside_the_contract(bad, why):
    X = np.arange(12.0).reshape(6, 2)
    y = np.array([0, 1, 2, 0, 1, bad])
    with pytest.raises(DataError, match=why):
        RankRLS().fit(X, y, [1, 1, 1, 2, 2, 2])
    if np.isfinite(bad):
        GainRegression().fit(X, y, [1, 1, 1, 2, 2, 2])        # documents real targets


def test_eval_names_the_file_and_line_of_a_bad_label(tmp_path):
    from repro.cli.eval import load_for_eval
    f = tmp_path / "test.txt"
    f.write_bytes(b"1 qid:1 1:0.5\n0 qid:1 1:0.2\n-1 qid:2 1:0.1\n")
    s = tmp_path / "scores.txt"
    s.write_text("0.1\n0.2\n0.3\n")
    with pytest.raises(DataError, match=r"test.txt, line 3: label -1 is negative"):
        load_for_eval(f.read_bytes(), f, s)


@pytest.mark.parametrize("name", [n for n in __import__("repro.rankers", fromlist=["x"]).__all__
                                  if n not in ("Ranker", "group_by_query")])
def test_every_ranker_refuses_non_finite_features_at_fit_and_predict(name):
    import repro.rankers as rk
    from repro.data.synthetic import make_queries
    d = make_queries(6, (4, 6), 4, seed=3)
    qid = np.repeat(d.qids, np.diff(d.query_ptr))
    fast = {"ConditionalRanker": {"sample_size": 5, "max_iter": 5}, "GreedyRankRLS": {"k": 2}}
    model = getattr(rk, name)(**fast.get(name, {}))
    bad = d.X.copy()
    bad[3, 1] = np.nan
    with pytest.raises(DataError, match=r"document 3, feature 1 is not finite"):
        model.fit(bad, d.y, qid)
    model.fit(d.X, d.y, qid)
    bad[3, 1] = np.inf
    with pytest.raises(DataError, match=r"document 3, feature 1 is not finite"):
        model.predict(bad)


def _letor_lines(n_feat=4):
    return [f"{lab} qid:{q} " + " ".join(f"{j}:{0.1 * (i + j):.2f}" for j in range(1, n_feat + 1))
            + f" #docid = d{i}" for i, (lab, q) in enumerate([(1, 1), (0, 1), (2, 2), (0, 2)])]


@pytest.mark.parametrize("stream", [False, True])
def test_the_loader_refuses_bad_labels_and_a_truncated_last_line(tmp_path, stream):
    from repro.data.letor import read_letor
    lines = _letor_lines()
    f = tmp_path / "a.txt"
    f.write_text("\n".join(lines) + "\n")
    assert read_letor(f, stream=stream).n_docs == 4
    f.write_text("\n".join(lines[:3] + ["1.5" + lines[3][1:]]) + "\n")
    with pytest.raises(DataError, match=r"a.txt, line 4: label 1.5 is not an integer"):
        read_letor(f, stream=stream)
    f.write_text("\n".join(lines[:2] + ["-1" + lines[2][1:]] + lines[3:]) + "\n")
    with pytest.raises(DataError, match=r"a.txt, line 3: label -1 is negative"):
        read_letor(f, stream=stream)
    cut = lines[3].split(" 3:")[0]                      # 2 of 4 features, no newline
    f.write_text("\n".join(lines[:3] + [cut]))
    with pytest.raises(DataError, match=r"a.txt, line 4: the last line is truncated "
                                        r"\(2 of 4 features"):
        read_letor(f, stream=stream)
    f.write_text("\n".join(lines))                      # complete, just no final newline
    assert read_letor(f, stream=stream).n_docs == 4
