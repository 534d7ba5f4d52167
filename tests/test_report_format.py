"""How numbers read (:mod:`repro.report.format`): the text of each kind of number, as the pages,
the terminal table and the PDFs show it.  These pin today's text; a change to how numbers read
is a change to ``format.py`` and to these tables, nowhere else."""
import re
from pathlib import Path

import pytest

from repro.report import format as fmt
from repro.report.scoreboard import claim_row

NAN = float("nan")


@pytest.mark.parametrize("v, text", [
    (0.0, "0"), (3.0, "3"), (-7.0, "-7"), (1234.5678, "1234.6"), (0.123456, "0.1235"),
    (12.3456, "12.35"), (0.00123456, "0.001235"), (0.000123456, "0.0001235"),
    (-0.0004567, "-0.0004567"), (-8.388e-05, "-0.00008388"), (6.63e-05, "0.00006630"),
    (2.5e15, "2500000000000000.0"), (1.2e-7, "1.2e-07"),
])
def test_general_numbers_keep_four_significant_digits_in_one_notation(v, text):
    """Fixed-point down to 10⁻⁶: "-8.388e-05" and "-0.0001031" never side by side."""
    assert fmt.fmt_general(v) == text


@pytest.mark.parametrize("v, text", [
    (0.0, "0"), (0.0213, "+0.02130"), (-8.388e-05, "-0.00008388"), (3.0, "+3"),
])
def test_signed_numbers_have_a_sign_but_zero_has_none(v, text):
    assert fmt.fmt_signed(v) == text


@pytest.mark.parametrize("text, shown", [
    ("2^{10}", "2^10"), ("2^10", "2^10"), ("2^-5", "2^-5"), ("0.4410", "0.4410"),
    (None, ""), ("?", "?"),
])
def test_published_powers_of_two_read_one_way(text, shown):
    assert fmt.fmt_published(text) == shown


def test_labels_with_numbers_sort_by_value():
    """Value lists in numeric order: "|Ŷ| = 30; 100; 300; 1000; 3000", "k=-20" before "k=5"."""
    sizes = ["|Ŷ| = 100", "|Ŷ| = 1000", "|Ŷ| = 30", "|Ŷ| = 300", "|Ŷ| = 3000"]
    assert sorted(sizes, key=fmt.value_order) == ["|Ŷ| = 30", "|Ŷ| = 100", "|Ŷ| = 300",
                                                   "|Ŷ| = 1000", "|Ŷ| = 3000"]
    assert sorted(["k=5", "k=-20", "k=0"], key=fmt.value_order) == ["k=-20", "k=0", "k=5"]
    assert sorted(["NDCG@10", "NDCG@5", "MAP", "NDCG@1"], key=fmt.value_order) == \
        ["MAP", "NDCG@1", "NDCG@5", "NDCG@10"]


@pytest.mark.parametrize("x, text", [
    (None, "—"), (0.0, "0.0 %"), (-0.1234, "-12.3 %"), (2.5, "+250 %"), (0.00001, "0.0 %"),
])
def test_relative_differences_read_in_per_cent(x, text):
    assert fmt.fmt_relative(x) == text


@pytest.mark.parametrize("v, published, text", [
    (None, None, "—"), (True, None, "yes"), (False, "0.5", "no"), (7, None, "7"),
    (NAN, None, "NaN"), ("text", None, "text"),
    (0.44123, "0.4412", "0.44123"),        # one decimal more than the paper prints
    (0.44123, "45", "0.4412"),             # the paper prints none: general
    (12.5, "12.3", "12.50"),
    (128.0, "2^7", "2^7"), (1024.0, "2^{10}", "2^10"),   # powers of two where printed so
    (100.0, "2^7", "100"), (0.0312, "2^-5", "0.03120"),
    (0.123456, None, "0.1235"),
])
def test_a_value_reads_at_the_precision_of_its_published_number(v, published, text):
    assert fmt.fmt_value(v, published) == text


@pytest.mark.parametrize("d, published, value, text", [
    (None, None, None, ""), (0.0, None, None, "Δ ±0"),
    (0.00004, "0.4412", 0.4, "Δ +0.00004"), (-0.0123, "0.4412", 0.43, "Δ -0.01230"),
    (0.000001, "0.4412", 0.4, "Δ ±0.00000"),            # rounds to zero at that precision
    (0.0, "2^7", 128.0, "Δ ±0"), (0, "2^7", 256.0, "Δ log₂ +1"),
    (0, "2^7", 100.0, "Δ log₂ -0.356144"),
    (3.0, None, 5.0, "Δ +3"), (-0.000123, None, 1.0, "Δ -0.0001230"),
    (2.5, "45", 47.5, "Δ +2.500"),
])
def test_a_difference_reads_as_delta_at_the_values_precision(d, published, value, text):
    assert fmt.fmt_diff(d, published, value) == text


@pytest.mark.parametrize("ci, published, text", [
    ([0.43, 0.45], "0.4412", "[0.43000, 0.45000]"), ([0.5, 2.0], None, "[0.5000, 2]"),
    ([0.43], None, ""), (None, None, ""), ([True, 1.0], None, ""),
])
def test_an_interval_reads_at_the_values_precision(ci, published, text):
    assert fmt.fmt_ci(ci, published) == text


def test_sample_sizes_and_intervals_in_words():
    assert fmt.fmt_count(1234567) == "1,234,567"
    assert fmt.fmt_n({"n_queries": 52325}) == "n = 52,325 queries"
    assert fmt.fmt_n({"n_folds": 5}) == "n = 5 folds" and fmt.fmt_n({}) == ""
    assert fmt.interval_text({"ci95": [0.43, 0.45], "published": "0.4412", "n_queries": 784}) \
        == "95% interval [0.43000, 0.45000] (n = 784 queries)"
    assert fmt.interval_text({"ci95": [0.43, 0.45], "ci_basis": "bootstrap"}) \
        == "95% interval [0.4300, 0.4500] (bootstrap)"
    assert fmt.interval_text({"n_queries": 3}) == ""
    # a value judged against a published one: d, its 90% interval against ±δ, the bound,
    # what the interval accounts for
    rec = {"published": "0.4701", "value": 0.46963, "d": -0.00047,
           "d_ci90": [-0.00047, -0.00047], "margin": 0.0123,
           "margin_why": "one standard error of the value over the paper's test queries",
           "equivalence_bound": 0.00047, "equivalence_bound_margins": 0.0382,
           "noise_words": "none: d exact"}
    text = fmt.interval_text(rec)
    assert text.startswith("d = ") and "90% interval [" in text
    assert ("against ±δ = 0.01230 (one standard error of the value over the paper's test "
            "queries); equivalence bound 0.0004700 (0.038 δ); noise: none: d exact") in text
    assert "-0.00047" in text
    # without a margin it is not an equivalence statement
    assert not fmt.interval_text({k: v for k, v in rec.items() if k != "margin"})
    # a value no result could have reproduced says so, with a perfect reproduction's bound
    far = {**rec, "reachable_bound": 0.0288, "reachable_bound_margins": 2.34}
    assert ("; a perfect reproduction's bound here is 0.02880 (2.3 δ): no result could have "
            "been shown reproduced; noise:") in fmt.interval_text(far)
    assert "perfect reproduction" not in fmt.interval_text(
        {**rec, "reachable_bound": 0.001, "reachable_bound_margins": 0.08})


@pytest.mark.parametrize("p, text", [
    (None, "—"), (True, "—"), (NAN, "—"), (5e-5, "< 0.0001"), (0.0005, "0.0005"),
    (0.0123, "0.012"), (0.5, "0.500"), (1, "1.000"),
])
def test_p_values_read_no_finer_than_a_test_resolves(p, text):
    assert fmt.fmt_p(p) == text


@pytest.mark.parametrize("v, text", [
    (None, "—"), (NAN, "—"), (False, "—"), (-8.388e-05, "-0.00008388"),
    (-0.0001031, "-0.0001031"), (0.0, "0"), (12345.678, "+12345.7"),
])
def test_effects_without_an_interval_keep_four_significant_digits(v, text):
    """No exponent notation beside a fixed-point neighbour, no "+0"."""
    assert fmt.fmt_effect(v) == text


@pytest.mark.parametrize("v, ci, effect, interval", [
    # the two effects the issue names, each at the precision of its own interval
    (-8.388e-05, [-0.0008423, 0.0007761], "-0.00008", "[-0.00084, +0.00078]"),
    (-0.0001031, [-0.002615, 0.002627], "-0.0001", "[-0.0026, +0.0026]"),
    (0.0213, [0.0071, 0.0352], "+0.021", "[+0.007, +0.035]"),
    (85.444, [83.103, 87.472], "+85.4", "[+83.1, +87.5]"),
    (-0.00004, [-0.02881, 0.0], "0.000", "[-0.029, 0.000]"),     # rounds to zero: no sign
])
def test_effects_and_intervals_read_at_the_intervals_precision(v, ci, effect, interval):
    assert fmt.fmt_effect(v, ci) == effect
    assert fmt.fmt_effect_ci(ci) == interval


def test_a_claim_rows_numbers_come_from_the_formatter():
    row = claim_row({"claim": True, "verdict": "claim", "outcome": "replicated",
                     "effect": -8.388e-05, "effect_ci95": [-0.0002, 0.00001], "p_value": 0.00005,
                     "p_adjusted": 0.0002, "n_queries": 1234, "published_effect": -0.0002,
                     "effect_ratio": 0.41234, "effect_ratio_ci95": [-0.05, 1.0],
                     "delta_ri": -0.000123, "numbers": {"ours": 0.123456, "label": "x"}})
    assert (row["effect"], row["ci"], row["p"], row["p_adj"], row["n"]) == \
        ("-0.00008", "[-0.00020, +0.00001]", "< 0.0001", "0.0002", "1,234 queries")
    assert (row["outcome"], row["css"]) == ("replicated", "claim-replicated")
    assert row["ratio"] == "0.4123" and row["paper_effect"] == "-0.00020"
    assert row["extra"] == ("paper's effect -0.0002000, effect ratio 0.4123 [-0.05000, 1], "
                            "ΔRI -0.0001230")
    assert row["numbers"] == "label: x; ours: 0.1235"
    assert fmt.fmt_effect_ci([1, "x"]) == "" and fmt.fmt_effect_ci(None) == ""


@pytest.mark.parametrize("v, text", [
    (None, "None"), (True, "True"), (12345, "12,345"), (3.0, "3"), (1e12, "1.000e+12"),
    (NAN, "NaN"), (0.0, "0"), (1234.5678, "1,235"), (0.00123456, "0.001235"),
    (0.0001, "1.000e-04"), (2.5e7, "25,000,000"), (1.5, "1.5"), ("MB", "MB"),
])
def test_measurements_keep_four_significant_digits(v, text):
    assert fmt.fmt_sig(v) == text


@pytest.mark.parametrize("v, text", [
    (None, "—"), (2.5, "2.5 s"), (0.0123, "12.3 ms"), (1.2e-5, "12 µs"), (1234.0, "1.23e+03 s"),
])
def test_times_read_in_the_unit_that_fits(v, text):
    assert fmt.fmt_seconds(v) == text


def test_ratios_and_loads():
    assert fmt.fmt_ratio(None) == "—" and fmt.fmt_ratio(2.345) == "×2.35"
    assert fmt.fmt_ratio_range(1.915, 2.71) == "1.92–2.71"
    assert fmt.fmt_loads(None) == "—" and fmt.fmt_loads([0.5, 0.613, 1.0]) == "0.50 / 0.61 / 1.00"


def test_where_a_record_sits():
    r = {"artifact": "t", "dataset": "OHSUMED", "method": "RankSVM", "metric": "MAP", "fold": 3}
    assert fmt.where(r) == "t, OHSUMED, RankSVM, MAP, fold 3"
    assert fmt.where({"fold": 0, "method": ""}) == "fold 0"       # 0 is a fold, "" is unset
    assert fmt.where({}) == "" and fmt.where({}, ("dataset",), empty="—") == "—"
    assert fmt.where({"dataset": "X", "artifact": "a"}, ("dataset", "fold")) == "X"


def test_every_number_on_the_report_goes_through_the_formatter():
    """No module of the report formats a number itself (a format spec such as ``:.3f`` or
    ``:,`` inside an f-string) except format.py; rounding a number for a comparison
    (``float(f"{x:.6e}")``, changes.py) is not showing it."""
    spec = re.compile(r"\{[^{}]*:[+,]?[,.]?\d*[defgx%]\}|\{[^{}]*:,\}|\{[^{}]*:[+,]?,?\.\{")
    root = Path(fmt.__file__).parent
    found = [f"{p.name}:{n}" for p in sorted(root.glob("*.py")) if p.name != "format.py"
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             if spec.search(line) and 'float(f"' not in line]
    assert found == []


# --- names a reader knows ------------------------------------------------------------------------

def test_data_sets_are_named_as_a_reader_knows_them():
    from repro.report.standins import declared_stand_ins, label, name
    from repro.report.format import where
    assert name("corel-pamir:Small-Easy") == "Corel-Small-Easy"
    assert name("rcv1-singhal") == "Reuters-2000 (Singhal features)"
    assert name("MQ2008") == "MQ2008" and name(None) == ""
    assert label("corel5k", "corel-pamir:Small-Easy") == "Corel5k (stand-in for Corel-Small-Easy)"
    assert label("MQ2008", "web-search-lesmola") == "MQ2008 (stand-in for web-search data)"
    assert where({"dataset": "google-images", "method": "PAMIR-1M", "fold": "2"}) == \
        "Google image-search data, PAMIR-1M, fold 2"
    # read with the published values (one reader of the papers' TOML)
    assert declared_stand_ins("lesmola2007") == {"OHSUMED": "web-search-lesmola"}


def test_a_data_set_named_twice_differently_is_refused(tmp_path, monkeypatch):
    from repro.report import standins
    for pid, nm in (("pa", "Corel A"), ("pb", "Corel B")):
        (tmp_path / f"{pid}.toml").write_text(f'[report.names]\n"corel-x" = "{nm}"\n')
    monkeypatch.setattr(standins.registry, "module",
                        lambda pid: type("M", (), {"PUBLISHED_PATH": tmp_path / f"{pid}.toml"}))
    with pytest.raises(ValueError, match=r"'corel-x' is named 'Corel A' by pa and 'Corel B' by pb"):
        standins._names(("pa", "pb"))


def test_a_name_that_is_not_text_is_refused_naming_the_file(tmp_path):
    from repro.judge.published import load
    bad = tmp_path / "p.toml"
    bad.write_text('[report.names]\n"corel-x" = 3\n')
    with pytest.raises(ValueError, match=r"p\.toml: \[report\.names\] 'corel-x' must be a string"):
        load("p", bad)


def test_formulas_are_set_with_sub_and_superscripts():
    from repro.report.format import formula_html
    assert formula_html("l_i^+ = Σ_{r>y_i} count⁺(r)") == \
        "l<sub>i</sub><sup>+</sup> = Σ<sub>r&gt;y<sub>i</sub></sub> count⁺(r)"
    assert formula_html("C_{Q,i}ᵀU_{Q,i}") == "C<sub>Q,i</sub>ᵀU<sub>Q,i</sub>"
    assert formula_html("l_i^±, γ_i^±") == "l<sub>i</sub><sup>±</sup>, γ<sub>i</sub><sup>±</sup>"
    # identifiers and file names keep their underscores; text is escaped
    assert formula_html("ConvexLoss_MAP, sample_size, test_lqo.py <b>") == \
        "ConvexLoss_MAP, sample_size, test_lqo.py &lt;b&gt;"


def test_headings_name_an_artifact_as_the_paper_does():
    from repro.report.format import artifact_heading
    assert artifact_heading("figure3", "Figure 3: MAP of the baselines") == \
        "Figure 3: MAP of the baselines"
    assert artifact_heading("figure3", "NDCG@10 on web search") == "Figure 3: NDCG@10 on web search"
    assert artifact_heading("sectionII", "Worked example") == "Section II: Worked example"
    assert artifact_heading("table2-qp", "Table 2, % of the training time") == \
        "Table 2, % of the training time"
    assert artifact_heading("figure1", "Figure 10 of the thesis") == "Figure 1: Figure 10 of the thesis"
    assert artifact_heading("claims", "Claims of Sec. 6") == "Claims of Sec. 6"


def test_powers_are_set_as_superscripts():
    from repro.report.format import formula_html, unicode_powers
    from repro.report.render import words
    assert formula_html("C in {2^-10, …, 2^10}, c = (i+1)^-0.25") == \
        "C in {2<sup>-10</sup>, …, 2<sup>10</sup>}, c = (i+1)<sup>-0.25</sup>"
    assert unicode_powers("DORM (NDCG, c=(i+1)^-1)") == "DORM (NDCG, c=(i+1)⁻¹)"
    assert unicode_powers("c = (i+1)^-0.25 and 2^e") == "c = (i+1)^-0.25 and 2^e"
    assert "c=(i+1)⁻¹)" in str(words("DORM (NDCG, c=(i+1)^-1)"))
    # simple scripts where Unicode has the characters; identifiers untouched
    assert unicode_powers("no feedback counts r_i, c_i = 1/√(i+1)") == \
        "no feedback counts rᵢ, cᵢ = 1/√(i+1)"
    assert unicode_powers("ConvexLoss_NDCG, L_3_AUC, l_i^±") == "ConvexLoss_NDCG, L_3_AUC, l_i^±"


def test_a_figure_is_labelled_as_the_paper_names_it():
    from repro.report.format import figure_label
    assert figure_label("figure3", "figure3") == "Figure 3"
    assert figure_label("figure3-OHSUMED", "figure3") == "Figure 3, OHSUMED"
    assert figure_label("figureII-MQ2008", "figureII") == "Figure II, MQ2008"
    assert figure_label("figure9-google-images", "figure9") == "Figure 9, Google image-search data"
    assert figure_label("complexity", "complexity") == "Complexity"
