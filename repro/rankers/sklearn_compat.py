"""What scikit-learn's model selection needs from a ranker, without depending on scikit-learn
at run time (it is imported only when scikit-learn itself asks):

* **tags** (``__sklearn_tags__``, scikit-learn ≥ 1.6; ``_more_tags`` for older versions): a
  supervised estimator that needs ``y``, accepts sparse input, is not a classifier or
  regressor (its scores are an order, not a prediction of ``y``);
* **score** ``score(X, y, qid=None)``: NDCG@10 with the official LETOR 4.0 conventions
  (:func:`repro.metrics.scorer.letor_measure`) unless ``score_measure``/``score_version`` say otherwise
  (class attributes, so that ``get_params`` stays the constructor's);
* **metadata routing** of ``qid``: ``fit`` and ``score`` request ``qid`` by default
  (``get_metadata_routing``), changeable with ``set_fit_request(qid=…)`` /
  ``set_score_request(qid=…)``.  Query ids are sample-aligned metadata, so cross-validation
  can slice them only when scikit-learn routes them:

  .. code-block:: python

     import sklearn
     sklearn.set_config(enable_metadata_routing=True)
     cross_val_score(RankSVM(), X, y, cv=GroupKFold(5), params={"qid": qid, "groups": qid})
     GridSearchCV(RankSVM(), {"C": [0.1, 1, 10]}, cv=GroupKFold(5)).fit(X, y, qid=qid,
                                                                        groups=qid)

  Without routing, ``fit(X, y, qid=…)`` (and a Pipeline's ``fit(X, y, ranker__qid=…)``)
  still works, and ``score`` without ``qid`` is refused with that advice.  scikit-learn's
  cross-validation turns a refused score into NaN with a warning, so a fit that it runs
  without routing (every score would be NaN, the "best" candidate the first) is refused
  instead (:func:`refuse_unrouted_selection`): the search then fails with that advice.
"""
from __future__ import annotations

import sys

from ..errors import DataError
from ..metrics.scorer import letor_measure

ROUTED = ("fit", "score")


QID_ADVICE = ("enable metadata routing (sklearn.set_config(enable_metadata_routing=True)) "
              "and pass the query ids: GridSearchCV(...).fit(X, y, qid=qid, groups=qid), "
              "cross_val_score(..., params={'qid': qid, 'groups': qid}); or score a fitted "
              "ranker yourself with its own qid argument: model.score(X, y, qid=qid)")


def refuse_unrouted_selection() -> None:
    """Refuse a fit that scikit-learn's cross-validation (``_fit_and_score``: GridSearchCV,
    cross_val_score, cross_validate, …) runs with metadata routing off: the scores that
    follow would get no query ids, and the search would select on NaN."""
    sk = sys.modules.get("sklearn")
    if sk is None or sk.get_config().get("enable_metadata_routing"):
        return
    frame = sys._getframe(1)
    while frame is not None:
        if frame.f_code.co_name == "_fit_and_score" and str(
                frame.f_globals.get("__name__", "")).startswith("sklearn.model_selection"):
            raise DataError("scikit-learn's cross-validation would score this ranker without "
                            "query ids (every score NaN): " + QID_ADVICE)
        frame = frame.f_back


class QidRequest(dict):
    """Which methods receive ``qid`` (method → True / False / None / alias); copied by
    scikit-learn's ``clone`` (``__sklearn_clone__``) like its own metadata requests."""

    def __sklearn_clone__(self):
        return QidRequest(self)


class SklearnRanker:
    """Mixin of :class:`~repro.rankers.base.Ranker`: tags, ``score`` and qid routing."""

    score_measure = "NDCG@10"
    score_version = 4

    # -- tags -------------------------------------------------------------------------------------
    def __sklearn_tags__(self):
        from sklearn.utils import InputTags, Tags, TargetTags
        return Tags(estimator_type=None, target_tags=TargetTags(required=True),
                    input_tags=InputTags(sparse=True), non_deterministic=False)

    def _more_tags(self) -> dict:                        # scikit-learn < 1.6
        return {"requires_y": True, "no_validation": False}

    # -- score ------------------------------------------------------------------------------------
    def score(self, X, y, qid=None) -> float:
        """The mean ``score_measure`` (default NDCG@10, LETOR 4.0 conventions) of the
        predicted scores over the queries given by ``qid`` (one id per document; documents of
        a query need not be contiguous)."""
        if qid is None:
            raise DataError(f"{type(self).__name__}.score: qid is required (one query id per "
                            f"document). In scikit-learn model selection, " + QID_ADVICE)
        return letor_measure(y, self.predict(X), self.score_measure, qid=qid,
                             version=self.score_version)

    # -- metadata routing -------------------------------------------------------------------------
    def _qid_requests(self) -> dict:
        # scikit-learn's clone copies an estimator's ``_metadata_request`` (deep copy)
        req = self.__dict__.get("_metadata_request")
        if not isinstance(req, QidRequest):
            req = QidRequest({m: True for m in ROUTED})
            self.__dict__["_metadata_request"] = req
        return req

    def set_fit_request(self, *, qid=True):
        """Whether ``fit`` receives ``qid`` from scikit-learn's metadata routing."""
        self._qid_requests()["fit"] = qid
        return self

    def set_score_request(self, *, qid=True):
        """Whether ``score`` receives ``qid`` from scikit-learn's metadata routing."""
        self._qid_requests()["score"] = qid
        return self

    def get_metadata_routing(self):
        from sklearn.utils.metadata_routing import MetadataRequest
        request = MetadataRequest(owner=type(self).__name__)
        for method, alias in self._qid_requests().items():
            getattr(request, method).add_request(param="qid", alias=alias)
        # known but unset (a Pipeline's score always names it; a value is refused): queries
        # are not weighted
        request.score.add_request(param="sample_weight", alias=None)
        return request
