"""The overview figure of a paper's page (repro.report.overview.draw): every text of the
forest's axis lies inside the figure, above the strip of claims, whatever the count of
values drawn as arrows beyond the range."""
import pytest

from repro.report.overview import Point, draw


def _extent(fig, artist):
    fig.canvas.draw()
    return artist.get_window_extent(fig.canvas.get_renderer())


@pytest.mark.parametrize("n_beyond", [0, 12, 345])
def test_the_forest_axis_label_fits_the_figure_above_the_strip(n_beyond):
    pts = [Point("Figure 3", "deviates", -0.5 - i / 10, -1.0 - i / 10, 0.2, f"v{i}")
           for i in range(20)]
    pts += [Point("Figure 6", "stand-in", -40.0, -45.0, -35.0, f"s{i}")
            for i in range(n_beyond)]
    claims = [{"artifact": "claims", "statement": "s", "css": "inconclusive",
               "stand_in": False, "key": True, "outcome": "inconclusive"}]
    fig = draw("paper: every value compared with a published one", pts, claims)
    forest, strip = fig.axes[0], fig.axes[1]
    label = _extent(fig, forest.xaxis.label)
    whole = fig.bbox
    assert label.x0 >= whole.x0 and label.x1 <= whole.x1, (label, whole)
    assert label.y0 >= _extent(fig, strip).y1          # above the strip of claims
    if n_beyond:
        assert f"arrows: {n_beyond} beyond" in forest.get_xlabel()


def test_the_site_forest_panels_titles_and_numbers_fit_the_figure():
    """The index page's forest plot: each panel's title and the numbers printed right of the
    axis for values beyond it lie inside the figure."""
    from repro.report.overview import draw_forest
    own = [Point(f"paper · Table {i}", "deviates", -0.5 - i, -1.0 - i, 0.2, "v")
           for i in range(8)] + [Point("paper · Table 9", "deviates", 40.0 + i, 39.0, 41.0,
                                       "far") for i in range(9)]
    stand = [Point("paper · Figure 6", "stand-in", 1390.0 + i, 1300.0, 1500.0, "s")
             for i in range(9)]
    fig = draw_forest(own, stand)
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    texts = [t for t in fig.texts] + [t for ax in fig.axes for t in ax.texts]
    assert any("On the paper's data" in t.get_text() for t in fig.texts)
    for t in texts:
        box = t.get_window_extent(renderer)
        assert fig.bbox.x0 <= box.x0 and box.x1 <= fig.bbox.x1, (t.get_text(), box)
