"""Loading datasets by name: verified files → parsed arrays (cached by checksum).

Every load re-reads and re-hashes its files, so a file that changed since it was cached is
caught (and refused if it no longer matches the catalog).  Parsing, the expensive part for
large sets, is skipped when arrays parsed from bytes with the same checksum are cached.
"""
from __future__ import annotations

import hashlib
import zipfile
import zlib
from functools import lru_cache
from pathlib import Path

import numpy as np

from ..files import atomic_write_bytes, atomic_writer, cache_root
from ..errors import DataCorrupt, DataError
from . import catalog as cat
from . import letor, user
from .labels import first_bad_label
from .io import file_checksums, matches_digests, read_bytes
from .letor import LetorStream, parse_letor
from .queries import QueryData

PARSER_VERSION = "2"   # bump when a reader's output changes, to invalidate parsed caches


def _parsed_path(digest: str, what: str) -> Path:
    return cache_root() / "data" / f"{digest[:40]}-{what}-v{PARSER_VERSION}.npz"


def _digest_file(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 22), b""):
            h.update(block)
    return h.hexdigest()


def _save_querydata(path: Path, d: QueryData) -> None:
    """Write the parsed arrays, then their file's sha256 beside them (``.sha256``): an entry
    is used only if the file still has that digest."""
    arrays = dict(X=d.X, y=d.y, query_ptr=d.query_ptr, qids=d.qids)
    if d.docids is not None:
        arrays["docids"] = d.docids.astype(str)
    if d.line_no is not None:
        arrays["line_no"] = d.line_no
    with atomic_writer(path) as fh:
        np.savez(fh, **arrays)
    atomic_write_bytes(path.with_suffix(".sha256"), _digest_file(path).encode())


def _discard(path: Path) -> None:
    for p in (path, path.with_suffix(".sha256")):
        try:
            p.unlink()
        except FileNotFoundError:
            pass


def _load_querydata(path: Path, source: str) -> QueryData | None:
    """The cached arrays, or None — after discarding the entry — if it is damaged (truncated,
    a flipped byte: its digest no longer matches) or unreadable; the caller reparses."""
    try:
        expected = path.with_suffix(".sha256").read_text().strip()
        if _digest_file(path) != expected:
            raise ValueError("digest mismatch")
        with np.load(path, allow_pickle=False) as z:
            return QueryData(X=np.ascontiguousarray(z["X"]), y=z["y"], query_ptr=z["query_ptr"],
                             qids=z["qids"],
                             docids=z["docids"].astype(object) if "docids" in z else None,
                             source=source,
                             line_no=z["line_no"] if "line_no" in z else None)
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile, zlib.error):
        _discard(path)
        return None


def _parse_cached(data: bytes, source: str, n_features: int | None, use_cache: bool,
                  digest: str | None = None, stream: LetorStream | None = None) -> QueryData:
    """Parsed arrays of verified ``data`` (from the parse cache when present); a large file
    comes as a scanned ``stream`` (and its sha256 ``digest``) instead of its bytes."""
    digest = digest or hashlib.sha256(data).hexdigest()
    cpath = _parsed_path(digest, f"letor{n_features or ''}")
    if use_cache and cpath.is_file():
        d = _load_querydata(cpath, source)
        if d is not None:
            return d
    d = stream.read(n_features) if stream is not None else parse_letor(data, source, n_features)
    if use_cache:
        _save_querydata(cpath, d)
    return d


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


def load_letor(name: str, fold: int, split: str, data_dir=None,
               use_cache: bool = True) -> QueryData:
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
        return _load_user(info, fold, split, root, use_cache)
    sources = cat.letor_sources(info, root, fold, split)
    manifest = sources[0][0].parent / "MANIFEST.json"
    rel = f"Fold{fold}/{info.split_files[split]}"
    fold_sums = [e for e in info.files.get(rel, []) if e.startswith("sha256:")]
    whole = hashlib.sha256()
    parts = []
    for path, sums in sources:
        if path.stat().st_size > letor.STREAM_BYTES:     # never the whole text in memory
            stream = _scan_verified(path, sums, whole)
            parts.append(_parse_cached(b"", str(path), info.n_features, use_cache,
                                       digest=stream.digests["sha256"][len("sha256:"):],
                                       stream=stream))
            continue
        data = cat.read_verified(path, sums)
        whole.update(data)
        parts.append(_parse_cached(data, str(path), info.n_features, use_cache))
    if manifest.is_file() and fold_sums and "sha256:" + whole.hexdigest() not in fold_sums \
            and not cat.allowed_path(manifest):
        raise DataCorrupt(f"{manifest}: Fold{fold} {split} assembled from "
                          f"{' + '.join(p.name for p, _ in sources)} does not equal the official "
                          f"{rel} (checksum mismatch); refusing to use this fold")
    d = parts[0] if len(parts) == 1 else QueryData.concat(parts)
    d.source = f"{name} Fold{fold} {split}"
    return d


# --- user datasets (repro.data.user) -----------------------------------------------------------

def _user_file(info: cat.DatasetInfo, root, rel: str, use_cache: bool) -> QueryData:
    path, _ = cat.require_file(info, root, rel)
    d = _parse_cached(read_bytes(path), str(path), None, use_cache)
    bad = first_bad_label(d.y)
    if bad is not None:                 # the suite's label contract (repro.data.labels)
        i, what = bad
        line = f", line {int(d.line_no[i])}" if d.line_no is not None else f", document {i}"
        raise DataError(f"{path}{line}: label {d.y[i]:g} {what}; labels are non-negative "
                        f"integers (repro.data.labels)")
    return d


def _user_width(info: cat.DatasetInfo, root, use_cache: bool) -> int:
    """The feature count of a user set: declared, else the widest of its files (so that every
    split of every fold has the same columns)."""
    if info.n_features:
        return int(info.n_features)
    rels = [rel for rel, _, _ in cat.dataset_files(info, root)]
    return max(_user_file(info, root, rel, use_cache).n_features for rel in rels)


def _load_user(info: cat.DatasetInfo, fold: int, split: str, root, use_cache: bool) -> QueryData:
    """A split of a user set (no checksums: read as it is, its values marked unverified)."""
    if split not in cat.SPLITS:
        raise DataError(f"split must be one of {cat.SPLITS}, got {split!r}")
    if not 1 <= fold <= info.n_folds:
        raise DataError(f"{info.id}: fold must be 1..{info.n_folds}, got {fold}")
    width = _user_width(info, root, use_cache)
    if info.single_file:
        whole = _user_file(info, root, info.single_file, use_cache)
        keep = user.split_queries(whole.n_queries, info.n_folds, info.split_seed, fold, split)
        d = whole.subset(keep)
    else:
        name = info.split_files[split]
        d = _user_file(info, root, f"Fold{fold}/{name}" if info.n_folds > 1 else name, use_cache)
    if d.n_features > width:
        raise DataError(f"{info.id}: {d.source} has feature indices up to {d.n_features}, more "
                        f"than the declared n_features = {width}")
    d = d.with_features(width)
    d.source = f"{info.id} Fold{fold} {split}"
    return d


def load_letor_fold(name: str, fold: int, data_dir=None) -> dict[str, QueryData]:
    return {s: load_letor(name, fold, s, data_dir) for s in cat.SPLITS}


@lru_cache(maxsize=256)
def _file_digest(path: str, size: int, mtime_ns: int) -> str:
    return file_checksums(Path(path), memo=True)["sha256"][len("sha256:"):]   # in chunks


def fingerprint(name: str, data_dir=None) -> str:
    """A digest of the content of every file of a dataset (part of result-cache keys).

    Missing files contribute "missing", so a run whose data is absent has a stable key too.
    Hashes are memoised per process by (path, size, mtime).
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
            st = path.stat()
            parts.append(f"{rel}:{_file_digest(str(path.resolve()), st.st_size, st.st_mtime_ns)}")
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()
