"""The command line: data status, artifact list, eval, errors; and datasets.md coverage."""
import lzma
import re
import shutil
from pathlib import Path

import numpy as np
import pytest

from repro.cli.main import main
from repro.data.catalog import catalog

ROOT = Path(__file__).resolve().parents[1]


def status_lines(out: str) -> dict:
    return dict(re.findall(r"^(\S+)\s+(VERIFIED|MISSING|CORRUPT|UNVERIFIED|NOT PUBLIC)", out, re.M))


@pytest.mark.slow
def test_data_lists_verified_and_missing(data_root, capsys):
    assert main(["data", "--data-dir", str(data_root)]) == 0
    st = status_lines(capsys.readouterr().out)
    for name in ["MQ2008", "OHSUMED", "page-blocks", "pendigits", "optdigits", "corel5k", "rcv1-subsets"]:
        assert st[name] == "VERIFIED", name
    for name in ["MQ2007", "TD2003", "TD2004", "HP2003", "HP2004", "NP2003", "NP2004",
                 "MSLR-WEB10K", "MSLR-WEB30K", "covertype", "eachmovie"]:
        assert st[name] == "MISSING", name


@pytest.mark.slow
def test_data_reports_a_corrupt_partition(data_root, tmp_path, capsys):
    shutil.copytree(data_root / "MQ2008", tmp_path / "MQ2008")
    p = tmp_path / "MQ2008" / "S3.txt.xz"
    raw = bytearray(lzma.decompress(p.read_bytes()))
    raw[5] ^= 1
    p.write_bytes(lzma.compress(bytes(raw)))
    assert main(["data", "MQ2008", "--data-dir", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert status_lines(out)["MQ2008"] == "CORRUPT"
    assert "S3.txt.xz: corrupt (checksum mismatch" in out


def test_list_shows_every_paper(capsys):
    assert main(["list", "--data-dir", "/nonexistent"]) == 0
    out = capsys.readouterr().out
    for pid in ["stevens2010", "dubey2009", "leelin2014", "lesmola2007", "pahikkala2010"]:
        assert f"{pid}." in out


def test_eval_command_prints_letor4_table(tmp_path, capsys):
    letor = tmp_path / "t.txt"
    letor.write_text("2 qid:1 1:1 #docid = a inc = 1 prob = 1\r\n0 qid:1 1:0 #docid = b inc = 1 prob = 1\r\n")
    scores = tmp_path / "s.txt"
    np.savetxt(scores, [0.1, 0.9])
    assert main(["eval", str(letor), str(scores), "--per-query"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].startswith("1\t0.0000\t0.5000\t")      # relevant doc ranked second
    assert lines[2].startswith("Average\t0.0000\t0.5000")


def test_unknown_target_is_a_clear_error(capsys):
    assert main(["table99", "--no-pdf"]) == 1
    assert "no artifact 'table99'" in capsys.readouterr().err


def test_datasets_md_covers_every_catalog_entry():
    text = (ROOT / "datasets.md").read_text()
    for name in catalog():
        assert f"`{name}`" in text, name
