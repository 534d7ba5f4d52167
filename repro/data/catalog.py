"""The dataset catalog (``catalog.toml``), the data directory, and file verification.

The data directory is ``--data-dir``, else ``$REPRO_DATA_DIR``, else ``./data``.  A dataset
lives in the first of its catalog ``folders`` that exists below it.  Every file is verified
against the checksums recorded in the catalog (not against anything found next to the data),
and a mismatch is refused with an error naming the file.
"""
from __future__ import annotations

import json
import os
import tomllib
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path

from ..errors import DataCorrupt, DataError, DataMissing
from .io import file_checksums, find_file, matches, matches_digests, read_bytes

SPLITS = ("train", "vali", "test")


@dataclass(frozen=True)
class DatasetInfo:
    id: str
    title: str
    kind: str
    obtain: str
    size: str = ""
    folders: tuple[str, ...] = ()
    letor_version: int | None = None
    n_features: int | None = None
    n_folds: int = 1
    split_files: dict = field(default_factory=dict)
    reader: str | None = None
    stand_in: str | None = None
    partitions: dict = field(default_factory=dict)
    files: dict = field(default_factory=dict)
    download: dict = field(default_factory=dict)   # file -> {url, sha256?, compression?}
    fetch_note: str = ""                           # why it cannot be fetched, what to do
    withdrawn: str = ""             # why no official copy exists (shown when absent)

    @property
    def public(self) -> bool:
        return self.kind != "private"


@lru_cache(maxsize=1)
def catalog() -> dict[str, DatasetInfo]:
    text = resources.files("repro.data").joinpath("catalog.toml").read_bytes()
    raw = tomllib.loads(text.decode("utf-8"))
    out = {}
    for key, entry in raw.items():
        entry = dict(entry)
        entry["folders"] = tuple(entry.get("folders", ()))
        out[key] = DatasetInfo(id=key, **entry)
    return out


def dataset(name: str) -> DatasetInfo:
    try:
        return catalog()[name]
    except KeyError:
        raise DataError(f"unknown dataset {name!r}; known: {', '.join(catalog())}") from None


def data_dir(arg: str | os.PathLike | None = None) -> Path:
    """``--data-dir`` if given, else ``$REPRO_DATA_DIR``, else ``./data``."""
    if arg:
        return Path(arg)
    env = os.environ.get("REPRO_DATA_DIR")
    return Path(env) if env else Path("data")


def locate(info: DatasetInfo, root: Path) -> Path | None:
    for folder in info.folders:
        p = root / folder
        if p.is_dir():
            return p
    return None


# --- LETOR layouts ------------------------------------------------------------------------

def _partition_layout(folder: Path) -> dict | None:
    """Fold composition from ``MANIFEST.json`` if the folder holds query partitions."""
    manifest = folder / "MANIFEST.json"
    if not manifest.is_file():
        return None
    try:
        m = json.loads(manifest.read_text())
        return {int(f[4:]): {s: list(v[s]["partitions"]) for s in SPLITS}
                for f, v in m["folds"].items()}
    except (ValueError, KeyError, TypeError) as exc:
        raise DataCorrupt(f"{manifest}: not a valid partition manifest ({exc})") from exc


@dataclass
class FileCheck:
    name: str                 # catalog name (e.g. "S1" or "Fold1/train.txt")
    path: Path | None
    state: str                # verified | unverified | corrupt | missing
    detail: str = ""


def verify_bytes(data: bytes, expected: list[str], path: Path) -> FileCheck:
    found = matches(data, expected)
    return verify_digests({"found": found} if found else {}, expected, path)


def checksum_kinds(expected: list[str]) -> tuple[str, ...]:
    """The checksum kinds among ``expected`` (sha256 when none is recorded)."""
    kinds = tuple(dict.fromkeys(e.split(":", 1)[0] for e in expected))
    return kinds or ("sha256",)


def verify_digests(digests: dict[str, str], expected: list[str], path: Path) -> FileCheck:
    """:func:`verify_bytes` for content checksummed as a stream (``kind -> "kind:<hex>"``)."""
    if not expected:
        return FileCheck(path.name, path, "unverified", "no checksum recorded in the catalog")
    if matches_digests(digests, expected):
        return FileCheck(path.name, path, "verified")
    return FileCheck(path.name, path, "corrupt",
                     f"checksum mismatch (expected one of: {', '.join(e[:23] for e in expected)}…)")


def read_verified(path: Path, expected: list[str]) -> bytes:
    """Read a file and refuse it unless it matches one of the expected checksums.

    Files without a recorded checksum (user-supplied data the catalog cannot vouch for) are
    read unverified; everything else must match.
    """
    data = read_bytes(path)
    check = verify_bytes(data, expected, path)
    if check.state == "corrupt":
        raise DataCorrupt(f"{path}: {check.detail}; refusing to load it")
    return data


def require_file(info: DatasetInfo, root: Path, rel: str) -> tuple[Path, list[str]]:
    """``(path, expected checksums)`` of file ``rel`` of a dataset (plain, .xz or .gz), or a
    :class:`DataMissing` that says where it was looked for and where to obtain it."""
    folder = locate(info, root)
    path = find_file(folder, rel) if folder else None
    if path is None:
        where = folder / rel if folder else f"{root}/{{{','.join(info.folders)}}}/{rel}"
        raise DataMissing(f"{info.id}: {where} not found; obtain it from: {info.obtain}")
    return path, list(info.files.get(rel, []))


def letor_sources(info: DatasetInfo, root: Path, fold: int, split: str) -> list[tuple[Path, list[str]]]:
    """Files (and their expected checksums) whose concatenation is the given fold split."""
    if split not in SPLITS:
        raise DataError(f"split must be one of {SPLITS}, got {split!r}")
    if not 1 <= fold <= info.n_folds:
        raise DataError(f"{info.id}: fold must be 1..{info.n_folds}, got {fold}")
    folder = locate(info, root)
    if folder is None:
        raise DataMissing(f"{info.id}: not found under {root} "
                          f"(looked for {', '.join(info.folders)}); obtain it from: {info.obtain}")
    layout = _partition_layout(folder)
    if layout is not None:
        out = []
        for part in layout[fold][split]:
            p = find_file(folder, f"{part}.txt")
            if p is None:
                raise DataMissing(f"{folder}: partition {part}.txt(.xz|.gz) missing")
            out.append((p, list(info.partitions.get(part, []))))
        return out
    name = info.split_files[split]
    return [require_file(info, root, f"Fold{fold}/{name}" if info.n_folds > 1 else name)]


def dataset_files(info: DatasetInfo, root: Path) -> list[tuple[str, Path | None, list[str]]]:
    """Every file of a dataset: (catalog name, path or None if absent, expected checksums)."""
    folder = locate(info, root)
    out: list[tuple[str, Path | None, list[str]]] = []
    if info.kind == "letor":
        layout = _partition_layout(folder) if folder else None
        if layout is not None:
            for part in sorted({p for f in layout.values() for s in f.values() for p in s}):
                out.append((part, find_file(folder, f"{part}.txt"),
                            list(info.partitions.get(part, []))))
            return out
        for f in range(1, info.n_folds + 1):
            for s in SPLITS:
                rel = f"Fold{f}/{info.split_files[s]}" if info.n_folds > 1 else info.split_files[s]
                out.append((rel, find_file(folder, rel) if folder else None,
                            list(info.files.get(rel, []))))
        return out
    for rel, sums in info.files.items():
        out.append((rel, find_file(folder, rel) if folder else None, list(sums)))
    return out


@dataclass
class DatasetStatus:
    info: DatasetInfo
    state: str                 # verified | unverified | corrupt | missing | not public
    folder: Path | None
    files: list[FileCheck]

    @property
    def usable(self) -> bool:
        return self.state in ("verified", "unverified")

    @property
    def detail(self) -> str:
        bad = [f for f in self.files if f.state in ("corrupt", "missing")]
        if self.state == "not public":
            return f"never public; stand-in: {self.info.stand_in}"
        if self.state == "missing" and self.folder is None:
            return f"no folder {' or '.join(self.info.folders)}"
        if bad:
            return "; ".join(f"{f.path or f.name}: {f.state}"
                             + (f" ({f.detail})" if f.detail else "") for f in bad)
        if self.state == "unverified":
            return "no recorded checksum for: " + ", ".join(
                f.name for f in self.files if f.state == "unverified")
        return f"{len(self.files)} files"


def status(name: str, root: Path, memo: bool = False) -> DatasetStatus:
    """Locate and fully verify every file of a dataset (decompresses and hashes each one;
    ``memo``: reuse digests of unchanged files computed earlier, see ``file_checksums``)."""
    info = dataset(name)
    if not info.public:
        return DatasetStatus(info, "not public", None, [])
    folder = locate(info, root)
    if folder is None:
        return DatasetStatus(info, "missing", None, [])
    checks: list[FileCheck] = []
    try:
        files = dataset_files(info, root)
    except DataCorrupt as exc:
        return DatasetStatus(info, "corrupt", folder, [FileCheck("MANIFEST.json", None,
                                                                  "corrupt", str(exc))])
    for rel, path, sums in files:
        if path is None:
            checks.append(FileCheck(rel, None, "missing"))
            continue
        try:       # checksummed in chunks: memory independent of the file's size
            check = verify_digests(file_checksums(path, checksum_kinds(sums), memo=memo),
                                   sums, path)
        except DataCorrupt as exc:
            check = FileCheck(rel, path, "corrupt", str(exc).split(": ", 1)[-1])
        check.name = rel
        checks.append(check)
    states = {c.state for c in checks}
    if not checks or states == {"missing"}:
        state = "missing"
    elif "corrupt" in states:
        state = "corrupt"
    elif "missing" in states:
        state = "missing"
    elif "unverified" in states:
        state = "unverified"
    else:
        state = "verified"
    return DatasetStatus(info, state, folder, checks)


SYNTHETIC = "synthetic"


def data_state(name: str, data_dir) -> tuple[bool, str]:
    """``(available, reason if not)`` for a run on dataset ``name``: its files are present (their
    content is verified when loaded).  ``synthetic`` is always available."""
    if name == SYNTHETIC:
        return True, ""
    info = dataset(name)
    if not info.public:
        return False, f"{name} was never public (stand-in: {info.stand_in})"
    root = Path(data_dir)
    try:
        files = dataset_files(info, root)
    except DataCorrupt as exc:
        return False, f"data corrupt: {exc}"
    if locate(info, root) is None or not files or any(p is None for _, p, _ in files):
        if info.withdrawn:
            return False, info.withdrawn
        return False, f"data missing: {name} (see `python -m repro data`)"
    return True, ""
