"""The dataset catalog (``catalog.toml``), the data directory, and file verification.

The data directory is ``--data-dir``, else ``$REPRO_DATA_DIR``, else ``./data``; several
directories form a search path (``--data-dir A --data-dir B``, ``REPRO_DATA_DIR=A:B``: one value
joined by ``os.pathsep``, :func:`roots` splits it).  A dataset lives in the first of its catalog
``folders`` that exists below the first directory of the path that has one.  Every file is
verified against the checksums recorded in the catalog (not against anything found next to the
data), and a mismatch is refused with an error naming the file — unless the dataset was named
with ``--allow-unverified`` (:func:`allow_unverified`): its values are then marked "unverified
copy" in every report.

User datasets (``--dataset NAME=PATH``, a ``repro.toml`` catalog; :mod:`repro.data.user`) are
registered beside the package's catalog with :func:`register_user`; they have no checksums and
every value computed on them says "user data: NAME (unverified)".  Registrations live in this
process (:data:`REGISTERED`; forked pool workers inherit them); a run on a user set carries the
set's registration in its specification to any other worker, a Dask cluster's included
(:mod:`repro.data.shipped`).  Allowances (``--allow-unverified``) live in this process too
(:data:`ALLOWED`); a run on an allowed set carries its allowance (``RunSpec.allow_unverified``)
and a worker holds it while that run executes (:func:`allowing`).
"""
from __future__ import annotations

import json
import os
import tomllib
from contextlib import contextmanager
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
    user: bool = False              # registered by the user (--dataset, repro.toml): unverified
    single_file: str = ""           # user set in one file, split into query folds by a seeded rule
    split_seed: int = 0             # the seed of that rule

    @property
    def public(self) -> bool:
        return self.kind != "private"


@lru_cache(maxsize=1)
def builtin_catalog() -> dict[str, DatasetInfo]:
    """The package's catalog (``catalog.toml``)."""
    text = resources.files("repro.data").joinpath("catalog.toml").read_bytes()
    raw = tomllib.loads(text.decode("utf-8"))
    out = {}
    for key, entry in raw.items():
        entry = dict(entry)
        entry["folders"] = tuple(entry.get("folders", ()))
        out[key] = DatasetInfo(id=key, **entry)
    return out


#: The user's datasets registered in this process (``--dataset``, ``repro.toml``), by name.
REGISTERED: dict[str, DatasetInfo] = {}


def user_datasets() -> dict[str, DatasetInfo]:
    """The user's datasets registered in this process."""
    return dict(REGISTERED)


def register_user(infos: dict[str, DatasetInfo]) -> None:
    """Register user datasets (replacing earlier registrations of the same names) for this
    process and the pool workers it forks.  A name of the package's catalog is refused:
    a user's copy of a catalogued set runs under its own name with ``--allow-unverified``."""
    for name in infos:
        if name in builtin_catalog():
            raise DataError(f"user dataset {name!r}: the name is a catalogued dataset; choose "
                            f"another name (or run your copy of {name} with "
                            f"--allow-unverified {name})")
        if name == SYNTHETIC:
            raise DataError(f"user dataset {name!r}: the name is reserved")
    REGISTERED.update(infos)


def restore_user(saved: dict[str, DatasetInfo]) -> None:
    """Put back the registrations ``saved`` (a :func:`user_datasets` taken earlier)."""
    REGISTERED.clear()
    REGISTERED.update(saved)


#: The catalogued datasets this process may read although their files do not match the
#: recorded checksums (``--allow-unverified``).
ALLOWED: set[str] = set()


def allow_unverified(names) -> None:
    """Let catalogued datasets ``names`` run although their files do not match the recorded
    checksums (``--allow-unverified``); their values are marked "unverified copy"."""
    for name in names:
        dataset(name)                              # a known name, or a clear error
    ALLOWED.update(names)


def allowed_unverified() -> tuple[str, ...]:
    return tuple(sorted(ALLOWED))


@contextmanager
def allowing(name: str):
    """``--allow-unverified name`` while the block runs (a worker executing a run that carries
    the allowance); an allowance held before stays."""
    held = name in ALLOWED
    ALLOWED.add(name)
    try:
        yield
    finally:
        if not held:
            ALLOWED.discard(name)


def catalog() -> dict[str, DatasetInfo]:
    """Every known dataset: the package's catalog, then the user's registered sets."""
    return {**builtin_catalog(), **user_datasets()}


def dataset(name: str) -> DatasetInfo:
    try:
        return catalog()[name]
    except KeyError:
        raise DataError(f"unknown dataset {name!r}; known: {', '.join(catalog())}") from None


def data_dir(arg=None) -> Path:
    """``--data-dir`` if given (one directory, or several: a list, or one value joined by
    ``os.pathsep``), else ``$REPRO_DATA_DIR`` (same form), else ``./data``.  Several
    directories come back as one path value joined by ``os.pathsep``, each made absolute
    (:func:`roots` splits it)."""
    if isinstance(arg, (list, tuple)):
        parts = [str(a) for a in arg if str(a)]
    elif arg:
        parts = [str(arg)]
    else:
        parts = [os.environ.get("REPRO_DATA_DIR") or "data"]
    dirs = [d for p in parts for d in p.split(os.pathsep) if d]
    if len(dirs) == 1:
        return Path(dirs[0])
    return Path(os.pathsep.join(str(Path(d).absolute()) for d in dirs))


def roots(root) -> list[Path]:
    """The directories of a data search path (one directory: itself)."""
    parts = [p for p in str(root).split(os.pathsep) if p]
    return [Path(p) for p in parts] or [Path(root)]


def exists(root) -> bool:
    """Whether any directory of the search path exists."""
    return any(r.is_dir() for r in roots(root))


def locate(info: DatasetInfo, root: Path) -> Path | None:
    """The dataset's folder: the first of its ``folders`` found in the first directory of the
    search path that has one (a user set's folder is absolute)."""
    for r in roots(root):
        for folder in info.folders:
            p = r / folder
            if p.is_dir():
                return p
    return None


def allowed_path(path: Path) -> str | None:
    """The ``--allow-unverified`` dataset whose folder holds ``path``, if any."""
    names = allowed_unverified()
    if not names:
        return None
    text = "/" + "/".join(Path(path).absolute().parts[1:]) + "/"
    for name in names:
        for folder in dataset(name).folders:
            if f"/{folder.strip('/')}/" in text:
                return name
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
    if check.state == "corrupt" and not allowed_path(path):
        raise DataCorrupt(f"{path}: {check.detail}; refusing to load it (a copy of your own: "
                          f"--allow-unverified runs it, its values marked 'unverified copy')")
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
    if info.single_file:                      # a user set in one file (repro.data.user)
        path = folder / info.single_file if folder else None
        return [(info.single_file, path if path is not None and path.is_file() else None, [])]
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


def data_mark(name: str, root) -> str:
    """What every value computed on dataset ``name`` must say about its data ("" for data
    verified against the catalog, or refused): ``user data: NAME (unverified)`` for a user
    set, ``unverified copy: …`` for a catalogued set run with ``--allow-unverified`` whose files
    do not all match their recorded checksums."""
    if name == SYNTHETIC:
        return ""
    info = dataset(name)
    if info.user:
        return f"user data: {name} (unverified)"
    if name in allowed_unverified():
        st = status(name, Path(root))       # hashed now: a remembered digest could be stale
        if st.state == "corrupt":
            return (f"unverified copy: {name} (its files do not match the catalog's checksums: "
                    f"{st.detail}; run with --allow-unverified)")
    return ""


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
