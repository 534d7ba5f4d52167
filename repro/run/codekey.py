"""Code keys by construction: the source a run's result depends on, found from imports.

A run's code key hashes the package version and the source of every module in the *import
closure* of the module defining its task: the modules it imports (at any depth, wherever the
import statement is — top of the module or inside a function), restricted to the ``repro``
package, found by reading the source (``ast``), not by running it.  A Cython kernel
(``repro._kernels.<stem>``) contributes its ``kernels/<stem>.pyx`` source when the checkout
has it, else its compiled extension.  Editing a helper that a task uses therefore changes
that task's key, and editing a module it does not import (another paper, the report) does not.

Not followed: imports made by name at run time (``importlib.import_module(variable)``) and the
implicit import of parent packages' ``__init__`` modules (declarations; a task that uses a name
from its package imports it explicitly: ``from . import PROTOCOL``).  :func:`imports_of` is
also what the layering test reads.
"""
from __future__ import annotations

import ast
import hashlib
import re
import sys
from functools import lru_cache
from pathlib import Path

from .. import __version__

PACKAGE = "repro"
ROOT = Path(__file__).resolve().parents[1]      # the installed (or checked-out) package


def module_file(name: str, root: Path = ROOT) -> Path | None:
    """The source file of module ``name``: for ``repro.*`` under ``root`` (a package's
    ``__init__.py``; a kernel's ``.pyx`` in ``root.parent / "kernels"``, else its compiled
    extension); for any other module, its ``__file__`` if it is imported."""
    parts = name.split(".")
    if parts[0] != PACKAGE:
        mod = sys.modules.get(name)
        f = getattr(mod, "__file__", None)
        return Path(f) if f else None
    rel = root.joinpath(*parts[1:])
    if len(parts) == 3 and parts[1] == "_kernels":
        pyx = root.parent / "kernels" / f"{parts[2]}.pyx"
        if pyx.is_file():
            return pyx
        built = sorted((root / "_kernels").glob(f"{parts[2]}.*.so")) + \
            sorted((root / "_kernels").glob(f"{parts[2]}.*.pyd"))
        return built[0] if built else None
    if (rel / "__init__.py").is_file():
        return rel / "__init__.py"
    if rel.with_suffix(".py").is_file():
        return rel.with_suffix(".py")
    return None


def _is_package(name: str, root: Path) -> bool:
    f = module_file(name, root)
    return f is not None and f.name == "__init__.py"


def imports_of(name: str, root: Path = ROOT, source: str | None = None) -> set[str]:
    """``repro`` modules that module ``name`` imports (each ``from pkg import x`` resolves to
    ``pkg.x`` when that is a module, else to ``pkg``)."""
    if source is None:
        path = module_file(name, root)
        if path is None or path.suffix != ".py":
            return set()
        source = path.read_text(encoding="utf-8")
    tree = ast.parse(source)
    package = name if _is_package(name, root) else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                found.add(alias.name)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base_parts = package.split(".")
                base_parts = base_parts[:len(base_parts) - (node.level - 1)]
                base = ".".join(base_parts + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                found.add(sub if module_file(sub, root) is not None else base)
    return {m for m in found if m == PACKAGE or m.startswith(PACKAGE + ".")}


def closure(name: str, root: Path = ROOT, path: Path | None = None) -> list[str]:
    """``name`` and every ``repro`` module reachable through its imports (sorted).  ``path``:
    the source file of ``name`` itself, when it cannot be found by name (a module loaded from
    a file outside the package)."""
    seen, todo = set(), [name]
    while todo:
        m = todo.pop()
        if m in seen:
            continue
        seen.add(m)
        src = path.read_text(encoding="utf-8") if (m == name and path is not None) else None
        todo.extend(imports_of(m, root, src) - seen)
    return sorted(seen)


def _digest(path: Path | None) -> str:
    if path is None:
        return "missing"
    return hashlib.sha256(path.read_bytes()).hexdigest()


_CIMPORT = re.compile(r"^\s*(?:from\s+([A-Za-z_][\w.]*)\s+cimport\b|cimport\s+([A-Za-z_][\w.]*))",
                      re.MULTILINE)


_EXTERN = re.compile(r"""^\s*cdef\s+extern\s+from\s+["']([^"']+)["']""", re.MULTILINE)


def cimported_pxds(source: Path, kernels: Path) -> list[Path]:
    """The ``.pxd`` files of ``kernels/`` that a Cython source ``cimport``s, at any depth, and
    the C headers of ``kernels/`` that it or they include (``cdef extern from "x.h"``:
    ``fixed_exp.h`` holds the arithmetic of the domination and conditional kernels).
    ``libc``/``numpy`` and other headers outside ``kernels/`` are not followed."""
    seen: dict[str, Path] = {}
    todo = [source]
    while todo:
        text = todo.pop().read_text(encoding="utf-8")
        for m in _CIMPORT.finditer(text):
            stem = (m.group(1) or m.group(2)).split(".")[0]
            pxd = kernels / f"{stem}.pxd"
            if pxd.name not in seen and pxd.is_file():
                seen[pxd.name] = pxd
                todo.append(pxd)
        for m in _EXTERN.finditer(text):
            header = kernels / m.group(1)
            if header.name not in seen and header.is_file():
                seen[header.name] = header
    return [seen[k] for k in sorted(seen)]


def built_extension(stem: str, root: Path = ROOT) -> Path | None:
    """The compiled extension of kernel ``stem``: the file the import system loads (when the
    kernel is imported from ``root``), else the one built under ``root/_kernels``."""
    name = f"{PACKAGE}._kernels.{stem}"
    mod = sys.modules.get(name)
    f = getattr(mod, "__file__", None)
    if f and Path(f).resolve().parent == (root / "_kernels").resolve():
        return Path(f)
    built = sorted((root / "_kernels").glob(f"{stem}.*.so")) + \
        sorted((root / "_kernels").glob(f"{stem}.*.pyd"))
    return built[0] if built else None


def kernel_parts(stem: str, root: Path = ROOT) -> list[str]:
    """What a kernel's results depend on: its ``.pyx`` source, the ``.pxd`` files it
    cimports, and its compiled extension."""
    kernels = root.parent / "kernels"
    pyx = kernels / f"{stem}.pyx"
    parts = []
    if pyx.is_file():
        parts.append(f"{PACKAGE}._kernels.{stem}:pyx:{_digest(pyx)}")
        parts += [f"{PACKAGE}._kernels.{stem}:pxd:{p.name}:{_digest(p)}"
                  for p in cimported_pxds(pyx, kernels)]
    parts.append(f"{PACKAGE}._kernels.{stem}:ext:{_digest(built_extension(stem, root))}")
    return parts


def code_key(name: str, root: Path = ROOT, path: Path | None = None) -> str:
    """sha256 over the package version and the source of every module in the import closure
    of ``name`` (``path``: its file, see :func:`closure`)."""
    parts = [f"version:{__version__}"]
    for m in closure(name, root, path):
        bits = m.split(".")
        if len(bits) == 3 and bits[:2] == [PACKAGE, "_kernels"]:
            parts += kernel_parts(bits[2], root)
            continue
        f = path if (m == name and path is not None) else module_file(m, root)
        parts.append(f"{m}:{_digest(f)}")
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


def function_file(fn) -> Path | None:
    """The source file defining function ``fn``."""
    code = getattr(fn, "__code__", None)
    return Path(code.co_filename) if code is not None else None


@lru_cache(maxsize=None)
def cached_code_key(name: str, path: Path | None = None) -> str:
    """:func:`code_key` for the installed package, memoised per process."""
    return code_key(name, ROOT, path)
