"""Tables 3–4 (EachMovie): not run."""
from __future__ import annotations

from ...errors import DataMissing
from ...spec.params import NoParams, study


@study(NoParams)
def task_eachmovie(ctx) -> dict:
    """Tables 3–4 need EachMovie with the protocols of Basilico & Hofmann (2004) and Yu et
    al. (2006), which the paper does not restate (kernels, filtering): not implemented."""
    raise DataMissing("EachMovie is present, but the Basilico & Hofmann (2004) and Yu et al. "
                      "(2006) protocols (filtering, kernels) are not restated by the paper and "
                      "not implemented")
