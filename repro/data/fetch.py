"""``python -m repro data --fetch NAME…``: download the datasets that have a stable public
download, verify them, and lay them out as the catalog expects.

What each file is fetched from is data: the ``[<id>.download]`` table of ``catalog.toml``
gives, per catalog file, the ``url``, the download's own ``sha256`` where it is known (a
plain file: the file's; an archive: the archive's), and how it is packed (``compression``:
``gz``, or ``Z`` — Unix ``compress``, which the standard library cannot read).  Downloads go
through pooch (which refuses a download whose ``sha256`` differs) into a temporary folder of
the data directory; the content is then checked against the catalog's checksums of the file,
like every read, and only then written (atomically) under its real name.  A refused download
leaves nothing behind under the real name.

``--mirror URL`` (or ``$REPRO_DOWNLOAD_MIRROR``) replaces every host: a file is then fetched
from ``<URL>/<dataset id>/<file name of its url>`` (for a local copy of the downloads, or a
test server).

Datasets behind a licence or a click-through page (LETOR 3.0/4.0, MSLR, Yahoo) cannot be
fetched: their manual steps are printed (official page, archive, where to unpack), and what
the user already unpacked is verified.
"""
from __future__ import annotations

import gzip
import os
import shutil
import tempfile
import zlib
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import pooch

from ..files import atomic_writer
from ..errors import DataCorrupt, DataError, ReproError
from . import catalog as cat
from .io import find_file, matches

MIRROR_ENV = "REPRO_DOWNLOAD_MIRROR"


class FetchManual(ReproError):
    """The download worked but a step needs a tool outside the standard library and pooch."""


@dataclass
class FetchOutcome:
    dataset: str
    state: str          # fetched | present | manual | failed | not public
    lines: list[str]

    @property
    def ok(self) -> bool:
        return self.state in ("fetched", "present", "manual", "not public")


def _url(name: str, entry: dict, mirror: str | None) -> str:
    url = entry["url"]
    if mirror:
        return f"{mirror.rstrip('/')}/{name}/{Path(urlsplit(url).path).name}"
    return url


def _download(url: str, known_hash: str | None, folder: Path) -> Path:
    fname = Path(urlsplit(url).path).name or "download"
    pooch.get_logger().setLevel("WARNING")       # our own lines say what was fetched
    try:
        return Path(pooch.retrieve(url, known_hash=known_hash, fname=fname, path=folder,
                                   progressbar=False))
    except ValueError as exc:              # pooch: the download's hash differs
        raise DataCorrupt(f"{fname} downloaded from {url} does not match its recorded "
                          f"checksum ({known_hash}); refused, nothing written ({exc})") from exc
    except Exception as exc:               # network, HTTP status, …
        raise DataError(f"could not download {url}: {exc}") from exc


def _unpack(path: Path, compression: str | None, rel: str, target: Path) -> bytes:
    """The content of the download ``path`` (decompressed)."""
    if not compression:
        return path.read_bytes()
    if compression == "gz":
        try:
            with gzip.open(path, "rb") as fh:
                return fh.read()
        except (OSError, EOFError, zlib.error) as exc:
            raise DataCorrupt(f"{path.name}: not a valid gzip file ({exc}); refused, nothing "
                              f"written") from exc
    if compression == "Z":
        kept = target.with_name(target.name + ".Z")
        kept.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, kept)
        raise FetchManual(
            f"{rel}: the download is compressed with Unix `compress` (.Z, LZW), which the "
            f"Python standard library cannot read. It was saved as {kept}; finish with\n"
            f"      gzip -d {kept}        (or: uncompress {kept})\n"
            f"    then check it with: python -m repro data {target.parent.name}")
    raise DataError(f"{rel}: unknown compression {compression!r} in the catalog")


def fetch_dataset(name: str, root: Path, mirror: str | None = None) -> FetchOutcome:
    """Fetch every downloadable file of dataset ``name`` missing from the data directory."""
    info = cat.dataset(name)
    if not info.public:
        return FetchOutcome(name, "not public", [f"never made public ({info.obtain}); "
                                                 f"stand-in: {info.stand_in}"])
    if not info.download:
        return FetchOutcome(name, "manual", manual_steps(info, root))
    folder = cat.locate(info, root) or root / info.folders[0]
    lines, manual, fetched = [], [], 0
    with tempfile.TemporaryDirectory(prefix=".fetch-", dir=_mkdir(root)) as tmp:
        for rel, entry in info.download.items():
            expected = list(info.files.get(rel, []))
            have = find_file(folder, rel)
            if have is not None:
                try:
                    data = cat.read_verified(have, expected)
                except DataCorrupt as exc:
                    return FetchOutcome(name, "failed", lines + [
                        f"{exc} — remove it and fetch again"])
                lines.append(f"{rel}: already present ({have})"
                             + ("" if expected else ", unverified"))
                continue
            url = _url(name, entry, mirror)
            try:
                got = _download(url, entry.get("sha256"), Path(tmp))
                data = _unpack(got, entry.get("compression"), rel, folder / rel)
            except FetchManual as exc:
                manual.append(str(exc))
                continue
            except ReproError as exc:
                return FetchOutcome(name, "failed", lines + [str(exc)])
            if expected and not matches(data, expected):
                return FetchOutcome(name, "failed", lines + [
                    f"{rel} from {url}: content does not match the catalog's checksum "
                    f"(expected one of: {', '.join(e[:23] + '…' for e in expected)}); "
                    f"refused, nothing written"])
            with atomic_writer(folder / rel) as fh:
                fh.write(data)
            fetched += 1
            lines.append(f"{rel}: fetched from {url} → {folder / rel} ("
                         + ("verified" if expected else "no checksum recorded: unverified")
                         + ")")
    lines += manual
    state = "manual" if manual else ("fetched" if fetched else "present")
    return FetchOutcome(name, state, lines)


def _mkdir(root: Path) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    return root


def _letor_layout(info: cat.DatasetInfo) -> str:
    names = ", ".join(info.split_files[s] for s in cat.SPLITS)
    if info.n_folds > 1:
        return f"Fold1/ … Fold{info.n_folds}/, each with {names}"
    return names


def manual_steps(info: cat.DatasetInfo, root: Path) -> list[str]:
    """What a user does by hand for a dataset without a stable public download, then the
    verification of what is already there."""
    where = root / info.folders[0]
    why = info.fetch_note or ("no stable public download (a licence agreement or a "
                              "click-through page on the official site)")
    lines = [f"cannot be fetched automatically: {why}",
             f"  1. obtain it from: {info.obtain}"]
    if info.kind == "letor":
        also = "".join(f" or {root / f}/" for f in info.folders[1:])
        lines.append(f"  2. unpack it so that {where}/{also} holds {_letor_layout(info)} "
                     f"(plain, .xz or .gz)")
    else:
        files = ", ".join(info.files) or "the files named in datasets.md"
        lines.append(f"  2. put {files} into {where}/")
    lines.append(f"  3. check it: python -m repro data {info.id}")
    st = cat.status(info.id, root)
    if st.folder is not None:
        lines.append(f"  now: {st.state} — {st.detail}")
    return lines


def fetch(names: list[str], root: Path, mirror: str | None = None, out=print) -> int:
    """Fetch each dataset of ``names``; print what happened; exit status (1 if any failed)."""
    mirror = mirror or os.environ.get(MIRROR_ENV) or None
    unknown = [n for n in names if n not in cat.catalog()]
    if unknown:
        raise DataError(f"unknown dataset(s) {', '.join(unknown)}; known: "
                        f"{', '.join(cat.catalog())}")
    out(f"data directory: {root.resolve()}" + (f"  (mirror: {mirror})" if mirror else ""))
    failed = 0
    for name in names:
        res = fetch_dataset(name, root, mirror)
        failed += not res.ok
        out(f"\n{name:14s} {res.state.upper()}")
        for line in res.lines:
            out(f"  {line}")
    return 1 if failed else 0
