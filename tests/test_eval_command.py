"""``repro eval`` prints what the official LETOR scripts print.

The fixtures in ``fixtures/official`` are the output files of the unmodified official scripts
(Eval-Score-4.0.pl / Eval-Score-3.0.pl, run with perl on the LF form of the files) for the
deterministic score rules below, which produce many ties."""
import lzma
from pathlib import Path

import numpy as np
import pytest

from repro.data.letor import parse_letor
from repro.errors import DataError
from repro.cli.eval import run

FIX = Path(__file__).parent / "fixtures" / "official"

CASES = [  # fixture, dataset folder, partition (= Fold1 test), score rule, per-query flag
    ("mq2008_fold1_test_f39r1", "MQ2008", "S5", lambda d: np.round(d.X[:, 38], 1), True),
    ("mq2008_fold1_test_zero", "MQ2008", "S5", lambda d: np.zeros(d.n_docs), False),
    ("ohsumed_fold1_test_f1r1", "OHSUMED", "S5", lambda d: np.round(d.X[:, 0], 1), True),
    ("ohsumed_fold1_test_zero", "OHSUMED", "S5", lambda d: np.zeros(d.n_docs), False),
]


@pytest.mark.parametrize("name,folder,part,rule,per_query", CASES)
def test_eval_output_equals_official_script(data_root, tmp_path, name, folder, part, rule,
                                            per_query):
    src = data_root / folder / f"{part}.txt.xz"
    if not src.is_file():
        pytest.skip(f"{src} missing")
    raw = lzma.decompress(src.read_bytes())
    letor = tmp_path / "test.txt"
    letor.write_bytes(raw)          # original bytes (CRLF for MQ2008): we accept both
    scores = rule(parse_letor(raw))
    sfile = tmp_path / "scores.txt"
    np.savetxt(sfile, scores, fmt="%.17g")
    assert run(str(letor), str(sfile), per_query=per_query) == (FIX / f"{name}.txt").read_text()


def test_eval_detects_version_and_refuses_a_short_score_file(tmp_path):
    letor = tmp_path / "t.txt"
    letor.write_text("2 qid:1 1:0.5 #docid = A inc = 1 prob = 0.3\n"
                     "0 qid:1 1:0.1 #docid = B inc = 1 prob = 0.3\n")
    s = tmp_path / "s.txt"
    s.write_text("0.2\n")
    with pytest.raises(DataError, match="has 1 lines but the LETOR file has 2"):
        run(str(letor), str(s))
    s.write_text("0.2\nnan\n")
    with pytest.raises(DataError, match="line 2.*not finite"):
        run(str(letor), str(s))
    s.write_text("0.2\n0.3\n")
    out = run(str(letor), str(s))
    assert out.startswith("qid\tP@1") and "MeanNDCG" in out    # LETOR 4.0 detected


def test_eval_keeps_the_last_line_of_a_duplicate_docid(tmp_path):
    letor = tmp_path / "t.txt"
    letor.write_text("0 qid:8 1:1 #docid = b\n1 qid:7 1:1 #docid = a\n"
                     "0 qid:7 1:1 #docid = c\n1 qid:7 1:1 #docid = c\n")
    s = tmp_path / "s.txt"
    s.write_text("0\n0\n5\n1\n")
    # qid 7: docs a (label 1, score 0) and c (last line: label 1, score 1) -> P@1 = 1
    out = run(str(letor), str(s), version=3, per_query=True)
    assert out.splitlines()[0] == "precision of query0:\t1\t1\t"


def test_eval_refuses_a_qid_split_in_two_places_as_the_loader_does(tmp_path):
    """The scripts would merge qid 7's lines; the loader refuses them."""
    letor = tmp_path / "t.txt"
    letor.write_text("1 qid:7 1:1 #docid = a\n0 qid:8 1:1 #docid = b\n"
                     "0 qid:7 1:1 #docid = c\n")
    s = tmp_path / "s.txt"
    s.write_text("0\n0\n5\n")
    with pytest.raises(DataError, match=r"t\.txt, line 3: qid 7 reappears after other queries "
                                        r"\(first seen at line 1\)"):
        run(str(letor), str(s))


def _files(tmp_path, lines, scores):
    letor = tmp_path / "t.txt"
    letor.write_text("".join(lines))
    s = tmp_path / "s.txt"
    s.write_text("".join(f"{v}\n" for v in scores))
    return str(letor), str(s)


LINES = ["2 qid:1 1:0.5 #docid = A inc = 1 prob = 0.3\n",
         "0 qid:1 1:0.1 #docid = B inc = 1 prob = 0.3\n",
         "1 qid:1 1:0.1 #docid = C inc = 1 prob = 0.3\n",
         "0 qid:2 1:0.1 #docid = D inc = 1 prob = 0.3\n",
         "0 qid:2 1:0.1 #docid = E inc = 1 prob = 0.3\n",
         "4 qid:3 1:0.1 #docid = F inc = 1 prob = 0.3\n",
         "3 qid:3 1:0.1 #docid = G inc = 1 prob = 0.3\n"]
SCORES = [0.5, 0.5, 0.9, 0.2, 0.1, 0.1, 0.2]   # q1 ranked C, A, B; q3 ranked G, F


def test_convention_letor_names_print_the_official_output(tmp_path):
    letor, s = _files(tmp_path, LINES, SCORES)
    assert run(letor, s, convention="letor4", per_query=True) == run(letor, s, per_query=True)
    assert run(letor, s, convention="letor3") == run(letor, s, version=3)
    assert run(letor, s, convention="stevens2010") == run(letor, s, version=4)
    with pytest.raises(DataError, match="--letor 3 and --convention gbdt disagree"):
        run(letor, s, version=3, convention="gbdt")
    with pytest.raises(DataError, match="convention: expected one of"):
        run(letor, s, convention="letor5")


def test_convention_mslr_counts_labels_from_2_as_relevant(tmp_path):
    letor, s = _files(tmp_path, LINES, SCORES)
    out = run(letor, s, convention="mslr", per_query=True).splitlines()
    # q1: relevant (label ≥ 2) only A, at rank 2 → P@1 0, P@2 0.5, AP 0.5; q3: G, F both
    assert out[1].split("\t")[1:3] == ["0.0000", "0.5000"] and out[1].endswith("\t0.5000")
    assert out[3].split("\t")[1:3] == ["1.0000", "1.0000"]
    # NDCG and MeanNDCG as the 4.0 script's (gain 2^r - 1 for grades 3 and 4 as well)
    official = run(letor, s, per_query=True).split("\n\n")[1]
    assert run(letor, s, convention="mslr", per_query=True).split("\n\n")[1] == official


def test_convention_gbdt_scores_a_query_without_relevant_documents_1(tmp_path):
    letor, s = _files(tmp_path, LINES, SCORES)
    out = run(letor, s, convention="gbdt", per_query=True)
    ndcg_lines = out.split("\n\n")[1].splitlines()
    assert ndcg_lines[0] == "qid\t" + "\t".join(f"NDCG@{k}" for k in range(1, 11))
    assert ndcg_lines[2] == "2\t" + "\t".join(["1.0000"] * 10)
    # q3 ranked G (3), F (4): (7 + 15/log2 3) / (15 + 7/log2 3), at every k ≥ 2 (truncated)
    want = "%.4f" % ((7 + 15 / np.log2(3)) / (15 + 7 / np.log2(3)))
    assert ndcg_lines[3].split("\t")[2:] == [want] * 9
    dubey = run(letor, s, convention="dubey2009", per_query=True).split("\n\n")[1].splitlines()
    assert dubey[2] == "2\t" + "\t".join(["nan"] * 10)     # left out of the averages
