"""Build script: compiles every Cython kernel in ``kernels/`` into ``repro._kernels``.

Compiler directives are set once here.  ``REPRO_DEBUG_KERNELS=1`` at build time turns bounds,
wrap-around and initialisation checks back on (slower, for debugging a kernel).

A kernel that fails to compile fails the install: there is no pure-Python fallback.
``REPRO_KERNELS=name1,name2`` (development only) restricts a build to those kernels, e.g.
``REPRO_KERNELS=lqo python setup.py build_ext --inplace`` after editing ``kernels/lqo.pyx``.
"""
import os
from pathlib import Path

import numpy as np
from Cython.Build import cythonize
from setuptools import Extension, setup

HERE = Path(__file__).parent
DEBUG = os.environ.get("REPRO_DEBUG_KERNELS", "") not in ("", "0")

DIRECTIVES = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "initializedcheck": DEBUG,
    "cdivision": not DEBUG,
    "nonecheck": DEBUG,
    "embedsignature": True,
}

ONLY = {k for k in os.environ.get("REPRO_KERNELS", "").split(",") if k}

#: Kernels whose bits must not depend on the instruction set compiled for (those that use the
#: fixed exp of ``kernels/fixed_exp.h``, PAMIR's updates, and the SVMperf oracles, which give
#: the bits of their NumPy reference): no contraction of a*b + c into an FMA.
EXACT_FP = {"domination", "conditional", "exp_values", "pamir", "fixed_order", "svmperf"}
EXACT_FP_ARGS = ["-ffp-contract=off"]

extensions = [
    Extension(
        f"repro._kernels.{pyx.stem}",
        [f"kernels/{pyx.name}"],
        include_dirs=[np.get_include(), str(HERE / "kernels")],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
        extra_compile_args=(["-O3"] if not DEBUG else ["-O0", "-g"])
        + (EXACT_FP_ARGS if pyx.stem in EXACT_FP else []),
    )
    for pyx in sorted((HERE / "kernels").glob("*.pyx"))
    if not ONLY or pyx.stem in ONLY
]

setup(
    ext_modules=cythonize(
        extensions,
        compiler_directives=DIRECTIVES,
        build_dir="build/cython",
        force=DEBUG,
    ),
)
