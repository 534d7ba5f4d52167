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
from repro.eval_command import run

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


def test_eval_merges_scattered_qids_and_keeps_last_duplicate_docid(tmp_path):
    letor = tmp_path / "t.txt"
    letor.write_text("1 qid:7 1:1 #docid = a\n0 qid:8 1:1 #docid = b\n"
                     "0 qid:7 1:1 #docid = c\n1 qid:7 1:1 #docid = c\n")
    s = tmp_path / "s.txt"
    s.write_text("0\n0\n5\n1\n")
    # qid 7: docs a (label 1, score 0) and c (last line: label 1, score 1) -> P@1 = 1
    out = run(str(letor), str(s), version=3, per_query=True)
    assert out.splitlines()[0] == "precision of query0:\t1\t1\t"
