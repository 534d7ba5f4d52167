"""A user set's registration as it travels inside a run's specification (``RunSpec.user_set``),
so that a worker that never saw ``--dataset`` or ``repro.toml`` — a Dask cluster's, on this
machine or another — resolves the set.

The text is JSON with two parts:

* ``info``: the set's catalog entry (:class:`repro.data.catalog.DatasetInfo`, its absolute
  path included), which the worker registers before the run (:func:`adopt`);
* ``identity``: what determines the run's result besides the set's name — the content digest
  of its files (:func:`repro.data.load.fingerprint`), its layout (``folds``: the official
  fold layout; ``one file``: split by the seeded rule, with its ``seed``), its fold count and
  its declared width.  This part, not the path or the title, enters the run's identity: the
  same files registered from another folder or machine give the same key.
"""
from __future__ import annotations

import json
from pathlib import Path

from ..errors import DataMissing
from . import catalog as cat
from .load import fingerprint


def for_run(name: str, data_dir=None) -> str | None:
    """The registration a run on dataset ``name`` carries: None unless ``name`` is a user set
    registered in this process."""
    info = cat.user_datasets().get(name)
    if info is None:
        return None
    entry = {k: v for k, v in info.__dict__.items() if k != "id"}
    entry["folders"] = list(entry["folders"])
    identity = {"digest": fingerprint(name, data_dir), "n_folds": info.n_folds,
                "n_features": info.n_features,
                "layout": "one file" if info.single_file else "folds"}
    if info.single_file:
        identity["seed"] = info.split_seed
    return json.dumps({"name": name, "info": entry, "identity": identity}, sort_keys=True)


def adopt(text: str) -> str:
    """Register the user set a run carries in this process (replacing a registration of the
    same name); its name.  A set whose files are not where the registration says — a worker
    on a machine without them — is refused naming the set and the path."""
    shipped = json.loads(text)
    entry = dict(shipped["info"])
    entry["folders"] = tuple(entry["folders"])
    info = cat.DatasetInfo(id=shipped["name"], **entry)
    path = Path(info.folders[0]) / info.single_file if info.single_file else Path(info.folders[0])
    if not (path.is_file() if info.single_file else path.is_dir()):
        raise DataMissing(f"user data set {info.id}: {path} not found on this worker; its "
                          f"files must be at the same path on every machine that runs it")
    cat.REGISTERED[info.id] = info
    return info.id
