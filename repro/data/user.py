"""The user's own datasets: ``--dataset NAME=PATH`` (repeatable) and a catalog file
(``repro.toml`` in the working directory, or ``--catalog FILE``).

A user set is LETOR/svmlight text (``label qid:Q i:v …``), in one of two layouts:

* the official fold layout — a directory with ``Fold1/train.txt``, ``Fold1/vali.txt``,
  ``Fold1/test.txt``, ``Fold2/…`` (as many folds as there are consecutive ``FoldN``
  directories), or a directory with ``train.txt``/``vali.txt``/``test.txt`` (one fold);
* one file, split into query folds by a seeded rule (:func:`fold_parts`): the queries, in file
  order, are permuted by ``numpy.random.default_rng(seed)`` and cut into ``folds`` near-equal
  parts S1..Sn; fold f trains on S_f … S_{f+n−3}, validates on S_{f+n−2} and tests on
  S_{f+n−1} (indices mod n) — LETOR's rotation (Fold1: train S1–S3, vali S4, test S5).

Any feature count (the widest file of the set, or ``n_features`` in the catalog file) and any
label range allowed by the suite's label contract (:mod:`repro.data.labels`: non-negative
integers).  A user set has no checksums: every value computed on it says "user data: NAME
(unverified)".

Catalog file::

    [datasets.mine]
    path = "data/mine"          # relative to the catalog file
    [datasets.onefile]
    path = "all.txt"
    folds = 5                   # one-file layout only (default 5)
    seed = 0                    # the split rule's seed (default 0)
    n_features = 200            # optional
    title = "My click logs"     # optional
"""
from __future__ import annotations

import errno
import os
import re
import tomllib
from pathlib import Path

from ..errors import DataError
from .catalog import SPLITS, DatasetInfo

CATALOG_FILE = "repro.toml"
NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.+-]*$")
SPLIT_FILES = {"train": "train.txt", "vali": "vali.txt", "test": "test.txt"}
FOLD_DIR = re.compile(r"^Fold(\d+)$")


def mark(name: str) -> str:
    """What every value computed on user set ``name`` says."""
    return f"user data: {name} (unverified)"


def _fold_count(folder: Path) -> int:
    n = 0
    while (folder / f"Fold{n + 1}").is_dir():
        n += 1
    return n


def info(name: str, path, folds: int = 5, seed: int = 0, n_features: int | None = None,
         title: str = "", where: str = "--dataset") -> DatasetInfo:
    """The catalog entry of user set ``name`` at ``path`` (a fold directory or one file)."""
    if not NAME.match(name or ""):
        raise DataError(f"{where}: dataset name {name!r} must be letters, digits and . _ + - "
                        f"(starting with a letter or digit)")
    path = Path(path).expanduser().absolute()
    base = dict(id=name, title=title or f"user data: {name} ({path})", kind="letor",
                obtain=f"your own data, registered by {where} ({path})", user=True,
                letor_version=4, n_features=None if n_features is None else int(n_features))
    if n_features is not None and int(n_features) < 1:
        raise DataError(f"{where}: {name}: n_features must be at least 1, got {n_features}")
    if path.is_dir():
        n = _fold_count(path)
        numbered = sorted(int(m.group(1)) for d in path.iterdir()
                          if d.is_dir() and (m := FOLD_DIR.match(d.name)))
        if any(k > n for k in numbered):
            raise DataError(f"{where}: {name}: {path} has "
                            f"{', '.join(f'Fold{k}' for k in numbered)} but no Fold{n + 1}: "
                            f"folds are numbered 1, 2, … without a gap (a fold after the gap "
                            f"would be left out)")
        if n == 0 and not all((path / f).is_file() for f in SPLIT_FILES.values()):
            raise DataError(f"{where}: {name}: {path} has neither Fold1/{{train,vali,test}}.txt "
                            f"(the official LETOR layout) nor train.txt, vali.txt and test.txt")
        for f in range(1, n + 1):
            missing = [s for s in SPLIT_FILES.values() if not (path / f"Fold{f}" / s).is_file()]
            if missing:
                raise DataError(f"{where}: {name}: {path / f'Fold{f}'} lacks "
                                f"{', '.join(missing)}")
        folder = path / "Fold1" if n == 1 else path     # one fold: its files, unnumbered
        return DatasetInfo(**base, folders=(str(folder),), n_folds=max(n, 1),
                           split_files=dict(SPLIT_FILES),
                           size=f"{max(n, 1)} fold(s), official layout")
    if path.is_file():
        folds = int(folds)
        if folds < 3:
            raise DataError(f"{where}: {name}: folds must be at least 3 (train, vali, test), "
                            f"got {folds}")
        return DatasetInfo(**base, folders=(str(path.parent),), n_folds=folds,
                           single_file=path.name, split_seed=int(seed),
                           files={path.name: []},
                           size=f"one file split into {folds} query folds (seed {int(seed)})")
    raise DataError(f"{where}: {name}: {path} {why_absent(path)}")


def why_absent(path: Path) -> str:
    """Why ``path`` is neither a file nor a directory: a link that leads in a circle, a link
    to nothing, not a file or folder, or nothing there."""
    if path.is_symlink() or any(p.is_symlink() for p in path.parents):
        try:
            path.resolve(strict=True)
        except RuntimeError:
            return "is a symbolic link loop (it leads back to itself)"
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                return "is a symbolic link loop (it leads back to itself)"
            if path.is_symlink():
                return f"is a symbolic link to {os.readlink(path)}, which does not exist"
    if os.path.lexists(path):
        return "is neither a file nor a directory"
    return "does not exist"


def parse_option(text: str) -> tuple[str, str]:
    """``NAME=PATH`` of ``--dataset``."""
    name, sep, path = text.partition("=")
    if not sep or not name or not path:
        raise DataError(f"--dataset {text!r}: expected NAME=PATH (a LETOR fold directory or "
                        f"one LETOR file)")
    return name.strip(), path


def read_catalog(path) -> dict[str, DatasetInfo]:
    """The datasets of a catalog file (``[datasets.NAME]`` tables; paths relative to it)."""
    path = Path(path)
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise DataError(f"catalog {path}: cannot read it ({exc.strerror or exc})") from None
    except tomllib.TOMLDecodeError as exc:
        raise DataError(f"catalog {path}: not valid TOML ({exc})") from None
    unknown = sorted(set(raw) - {"datasets"})
    if unknown:
        raise DataError(f"catalog {path}: unknown table(s) {', '.join(unknown)}; expected "
                        f"[datasets.NAME] entries")
    out = {}
    for name, entry in (raw.get("datasets") or {}).items():
        where = f"catalog {path} [datasets.{name}]"
        if not isinstance(entry, dict) or "path" not in entry:
            raise DataError(f"{where}: needs path = \"…\"")
        extra = sorted(set(entry) - {"path", "folds", "seed", "n_features", "title"})
        if extra:
            raise DataError(f"{where}: unknown key(s) {', '.join(extra)} (known: path, folds, "
                            f"seed, n_features, title)")
        for key, kind, what in CATALOG_TYPES:
            if key in entry and not (isinstance(entry[key], kind)
                                     and not isinstance(entry[key], bool)):
                raise DataError(f"{where}: {key} must be {what}, got {entry[key]!r}")
        p = Path(entry["path"]).expanduser()
        out[name] = info(name, p if p.is_absolute() else path.parent / p,
                         entry.get("folds", 5), entry.get("seed", 0), entry.get("n_features"),
                         entry.get("title", ""), where)
    return out


#: (key, type, in words) of every key of a catalog entry
CATALOG_TYPES = (("path", str, 'a path in quotes (path = "data/mine")'),
                 ("folds", int, "a whole number (folds = 5)"),
                 ("seed", int, "a whole number (seed = 0)"),
                 ("n_features", int, "a whole number (n_features = 136)"),
                 ("title", str, 'text in quotes (title = "…")'))


def fold_parts(n_queries: int, n_folds: int, seed: int) -> list[np.ndarray]:
    """The query indices of parts S1..Sn of the seeded split (each in file order)."""
    import numpy as np               # here: the command line imports this module to parse
    perm = np.random.default_rng(seed).permutation(n_queries)
    return [np.sort(p) for p in np.array_split(perm, n_folds)]


def split_queries(n_queries: int, n_folds: int, seed: int, fold: int, split: str) -> np.ndarray:
    """Query indices of ``split`` of fold ``fold`` (1-based) under the seeded rule."""
    if split not in SPLITS:
        raise DataError(f"split must be one of {SPLITS}, got {split!r}")
    parts = fold_parts(n_queries, n_folds, seed)
    f = fold - 1
    if split == "test":
        use = [(f + n_folds - 1) % n_folds]
    elif split == "vali":
        use = [(f + n_folds - 2) % n_folds]
    else:
        use = [(f + j) % n_folds for j in range(n_folds - 2)]
    import numpy as np
    return np.sort(np.concatenate([parts[i] for i in use]))


def files_of(info: DatasetInfo) -> list[Path]:
    """The files of user set ``info`` (its one file, or every fold's split files)."""
    folder = Path(info.folders[0])
    if info.single_file:
        return [folder / info.single_file]
    folds = [folder] if not (folder / "Fold1").is_dir() else [
        folder / f"Fold{k}" for k in range(1, info.n_folds + 1)]
    return [f / name for f in folds for name in info.split_files.values()]


def check_feature_limit(info: DatasetInfo, limit: int, chunk_bytes: int = 1 << 24) -> None:
    """Refuse user set ``info`` before anything runs when a file of it has a feature index above
    ``limit`` and the set declares no ``n_features``: the error names the file, the line and
    the token, as the parser's would (the parser refuses the same line inside a run; this
    check makes the refusal immediate and the command write nothing).  One streaming pass of
    the parser's scan kernel per file, in chunks of about ``chunk_bytes``."""
    if info.n_features is not None:
        return
    import numpy as np                     # the parser's kernel: only when a check is needed
    from .io import iter_line_chunks, printable
    from .letor import BOM, _kernel, limit_message
    token = re.compile(rb"(?:^|[ \t])(\d+):")
    for path in files_of(info):
        lines_before, first = 0, True
        for chunk in iter_line_chunks(path, chunk_bytes):
            if first and chunk[:3] == BOM:
                chunk = b"   " + chunk[3:]
            first = False
            counts = np.zeros(6, dtype=np.int64)
            _kernel.scan(np.frombuffer(chunk, dtype=np.uint8), False, counts)
            if int(counts[2]) > limit:
                for i, line in enumerate(chunk.split(b"\n")):
                    body = line.split(b"#", 1)[0]
                    big = [m for m in token.finditer(body) if int(m.group(1)) > limit]
                    if big:
                        tok = body[big[0].start(1):].split()[0].decode("utf-8", "replace")
                        raise DataError(
                            f"{path}, line {lines_before + i + 1}: {limit_message(limit)} (at "
                            f"{printable(tok, 40)!r}); nothing was run")
            lines_before += chunk.count(b"\n")
