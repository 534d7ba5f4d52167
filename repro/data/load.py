"""Loading datasets by name: verified files → parsed arrays.

Every load re-reads and re-hashes its files and parses the bytes it verified, so what a run
sees is what the catalog's checksums vouch for: a file that changed is caught (and refused if
it no longer matches the catalog), and nothing parsed is kept on disk, where it could be
edited after its verification (a parse costs less than the decompression and hashing each load
does anyway: MQ2008's Fold1 train set loads in about 0.2 s).
"""
from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

import numpy as np

from ..errors import DataCorrupt, DataError, DataMissing
from . import catalog as cat
from . import letor, user
from .labels import first_bad_label
from .io import file_checksums, file_identity, matches_digests, read_bytes
from .letor import LetorStream, parse_letor
from .queries import QueryData


def _scan_verified(path: Path, sums: list[str], whole) -> LetorStream:
    """A large file, scanned as a stream (its checksums computed on the way, ``whole`` fed
    its bytes) and refused, like :func:`repro.data.catalog.read_verified`, unless it matches
    one of the expected checksums."""
    stream = LetorStream(path)
    kinds = ("sha256", "gitblob") if any(e.startswith("gitblob:") for e in sums) else ("sha256",)
    digests = stream.scan(kinds, extra_hashers=[whole])
    if sums and not matches_digests(digests, sums) and "gitblob" in kinds \
            and "gitblob" not in digests:              # compressed: gitblob needs the size
        digests.update(file_checksums(path, ("gitblob",)))
    check = cat.verify_digests(digests, sums, path)
    if check.state == "corrupt" and not cat.allowed_path(path):
        raise DataCorrupt(f"{path}: {check.detail}; refusing to load it")
    return stream


def load_letor(name: str, fold: int, split: str, data_dir=None) -> QueryData:
    """Split ``split`` (train/vali/test) of fold ``fold`` of LETOR-kind dataset ``name``.

    Every file is verified against the catalog.  A fold assembled from query partitions
    (the ``MANIFEST.json`` layout) must also equal the official fold file: the
    concatenation is checked against the catalog's checksums of that file, so a manifest
    that composes folds differently is refused, naming the manifest.
    """
    info = cat.dataset(name)
    if info.kind != "letor":
        raise DataError(f"{name} is not a query-grouped LETOR dataset (kind {info.kind})")
    root = cat.data_dir(data_dir)
    if info.user:
        return _load_user(info, fold, split, root)
    sources = cat.letor_sources(info, root, fold, split)
    manifest = sources[0][0].parent / "MANIFEST.json"
    rel = f"Fold{fold}/{info.split_files[split]}"
    fold_sums = [e for e in info.files.get(rel, []) if e.startswith("sha256:")]
    whole = hashlib.sha256()
    parts = []
    for path, sums in sources:
        if path.stat().st_size > letor.STREAM_BYTES:     # never the whole text in memory
            parts.append(_scan_verified(path, sums, whole).read(info.n_features))
            continue
        data = cat.read_verified(path, sums)
        whole.update(data)
        parts.append(parse_letor(data, str(path), info.n_features))
    if manifest.is_file() and fold_sums and "sha256:" + whole.hexdigest() not in fold_sums \
            and not cat.allowed_path(manifest):
        raise DataCorrupt(f"{manifest}: Fold{fold} {split} assembled from "
                          f"{' + '.join(p.name for p, _ in sources)} does not equal the official "
                          f"{rel} (checksum mismatch); refusing to use this fold")
    d = parts[0] if len(parts) == 1 else QueryData.concat(parts)
    d.source = f"{name} Fold{fold} {split}"
    return d


# --- user datasets (repro.data.user) -----------------------------------------------------------

def _read_user(path: Path, declared: int | None = None) -> QueryData:
    """One file of a user set, its labels checked against the suite's label contract; its
    feature indices at most the set's declared width, else :func:`repro.data.letor.max_features`."""
    d = parse_letor(read_bytes(path), str(path), None,
                    limit=int(declared) if declared else letor.max_features())
    bad = first_bad_label(d.y)
    if bad is not None:                 # the suite's label contract (repro.data.labels)
        i, what = bad
        line = f", line {int(d.line_no[i])}" if d.line_no is not None else f", document {i}"
        raise DataError(f"{path}{line}: label {d.y[i]:g} {what}; labels are non-negative "
                        f"integers (repro.data.labels)")
    return d


def _user_file(info: cat.DatasetInfo, root, rel: str) -> QueryData:
    return _read_user(cat.require_file(info, root, rel)[0], info.n_features)


@lru_cache(maxsize=256)
def _file_width(identity: tuple, limit: int) -> int:
    """The feature count of one file of a user set (memoised by its identity,
    :func:`repro.data.io.file_identity`, and the index limit)."""
    return _read_user(Path(identity[0]), limit).n_features


def _user_width(info: cat.DatasetInfo, root) -> int:
    """The feature count of a user set: declared, else the widest of its files (so that every
    split of every fold has the same columns)."""
    if info.n_features:
        return int(info.n_features)
    widths = []
    for rel, path, _ in cat.dataset_files(info, root):
        if path is None:
            widths.append(_user_file(info, root, rel).n_features)     # says it is missing
        else:
            ident = file_identity(path)
            if ident is None:
                raise DataMissing(f"{path}: cannot be read")
            widths.append(_file_width(ident, letor.max_features()))
    return max(widths)


def label_levels(name: str, data_dir=None) -> list[float]:
    """The distinct labels of every file of user set ``name`` (features are not kept)."""
    info = cat.dataset(name)
    root = cat.data_dir(data_dir)
    limit = int(info.n_features) if info.n_features else letor.max_features()
    levels: set[float] = set()
    for rel, path, _ in cat.dataset_files(info, root):
        if path is None:
            continue
        raw = letor.tokenize(read_bytes(path), str(path), dense=False, limit=limit)
        levels.update(np.unique(raw["labels"]).tolist())
    return sorted(levels)


def _load_user(info: cat.DatasetInfo, fold: int, split: str, root) -> QueryData:
    """A split of a user set (no checksums: read as it is, its values marked unverified)."""
    if split not in cat.SPLITS:
        raise DataError(f"split must be one of {cat.SPLITS}, got {split!r}")
    if not 1 <= fold <= info.n_folds:
        raise DataError(f"{info.id}: fold must be 1..{info.n_folds}, got {fold}")
    width = _user_width(info, root)
    if info.single_file:
        whole = _user_file(info, root, info.single_file)
        if whole.n_queries < info.n_folds:
            raise DataError(f"{info.id}: {whole.source} has {whole.n_queries} queries, fewer "
                            f"than its {info.n_folds} folds (each part of the split needs a "
                            f"query); give folds = {max(3, whole.n_queries)} or fewer in the "
                            f"catalog file" if whole.n_queries >= 3 else
                            f"{info.id}: {whole.source} has {whole.n_queries} queries; a "
                            f"split into train, validation and test folds needs at least 3")
        keep = user.split_queries(whole.n_queries, info.n_folds, info.split_seed, fold, split)
        d = whole.subset(keep)
    else:
        name = info.split_files[split]
        d = _user_file(info, root, f"Fold{fold}/{name}" if info.n_folds > 1 else name)
    if d.n_features > width:
        raise DataError(f"{info.id}: {d.source} has feature indices up to {d.n_features}, more "
                        f"than the declared n_features = {width}")
    d = d.with_features(width)
    d.source = f"{info.id} Fold{fold} {split}"
    return d


def load_letor_fold(name: str, fold: int, data_dir=None) -> dict[str, QueryData]:
    return {s: load_letor(name, fold, s, data_dir) for s in cat.SPLITS}


@lru_cache(maxsize=256)
def _file_digest(identity: tuple) -> str:
    return file_checksums(Path(identity[0]), memo=True)["sha256"][len("sha256:"):]  # in chunks


def fingerprint(name: str, data_dir=None) -> str:
    """A digest of the content of every file of a dataset (part of result-cache keys).

    Missing files contribute "missing", so a run whose data is absent has a stable key too.
    Hashes are memoised per process and in the cache by the file's identity (path, device,
    inode, size, modification and status-change times: :func:`repro.data.io.file_identity`),
    read again at every call, so a file edited in place is hashed again.
    """
    info = cat.dataset(name)
    root = cat.data_dir(data_dir)
    if not info.public:
        return "private"
    parts = []
    folder = cat.locate(info, root)
    if folder is not None and (folder / "MANIFEST.json").is_file():   # composes the folds
        parts.append("MANIFEST.json:" + hashlib.sha256((folder / "MANIFEST.json").read_bytes()).hexdigest())
    for rel, path, _ in cat.dataset_files(info, root):
        if path is None:
            parts.append(f"{rel}:missing")
        else:
            ident = file_identity(path)
            if ident is None:
                raise DataMissing(f"{path}: cannot be read")
            parts.append(f"{rel}:{_file_digest(ident)}")
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()
