"""``python -m repro stability TARGET …``: do the values and verdicts survive another BLAS
kernel?  (A local check — CI keeps the machine's own settings.)

Last-bit differences of floating-point arithmetic (another BLAS kernel, another SIMD width,
another summation order) are amplified by sensitive methods — a selection of C that flips, a
non-convex fit that lands elsewhere.  This command reruns the targets twice, each time in a
process of its own with a fresh cache and a report directory of its own (never the committed
reports): under the BLAS kernel the machine picks and under a second one
(``OPENBLAS_CORETYPE``, default Sandybridge — every x86-64 machine of the last decade runs it).
It then compares the two renderings record by record (:func:`repro.report.changes.differences`:
values at 10 significant digits, verdicts as text) and lists

* the values that moved — those compared with a published value first, then by the size of
  the move relative to the value — each beside its record's run-to-run spread (the sd over
  replicates, when the artifact has replicates) or else the half-width of its 95% interval;
* the verdicts that flipped (all of them), each classed: between opposed outcomes (reproduced
  ↔ deviates, replicated ↔ reversed or not replicated), into or out of inconclusive, other;
* each equivalence bound that moved, against the half-width of its own 90% interval of d.

Exit status 1 when a rerun failed or the rule fails (:func:`failed_rule`: a verdict between
opposed outcomes, more than 2 % of the judged records into or out of inconclusive, a bound
moving beyond its own interval), 0 otherwise.  Timing artifacts are left
out (measured times change on every run).  The work directory (``--work``, default a new
temporary directory) keeps both renderings, their caches, logs and ``stability.json``.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from ..data.io import printable
from ..errors import ReproError
from ..files import jsonable
from ..evidence.record import CELL, OVER_FOLDS, number
from ..report.changes import differences
from ..spec import SEED_SALT_ENV
from . import guards

#: the second kernel unless ``--coretype`` says otherwise: AVX only, present on every x86-64
#: OpenBLAS build, and a different code path from the Haswell/SkylakeX kernels machines pick
DEFAULT_CORETYPE = "Sandybridge"
MACHINE = "machine"
#: how a rerun starts the command (a test starts a driver that registers its own paper)
PROGRAM = (sys.executable, "-m", "repro")
#: files of a rendering that hold no records
NOT_RECORDS = (".meta.json", ".runs.json")
PROBE = ("import json, numpy, threadpoolctl\n"
         "numpy.ones((64, 64)) @ numpy.ones((64, 64))\n"
         "info = [i for i in threadpoolctl.threadpool_info() if i.get('user_api') == 'blas']\n"
         "print(json.dumps(info[0] if info else {}))\n")


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m repro stability",
        description="Rerun TARGETs under the machine's BLAS kernel and under a second one "
                    "(OPENBLAS_CORETYPE), each in a process of its own with a fresh cache and "
                    "report directory, and list the values that moved (beside their run-to-run "
                    "spread) and the verdicts that flipped. Exit status 1 when a verdict "
                    "moved between reproduced and deviates (or a claim between replicated "
                    "and reversed / not replicated), more than 2%% of the verdicts moved into "
                    "or out of inconclusive, an equivalence bound moved beyond its own "
                    "interval, or a rerun failed. A local check: it reruns the targets twice.")
    p.add_argument("targets", nargs="+", help="what to rerun (a paper, an artifact, "
                   "paper.artifact; timing artifacts are left out)")
    p.add_argument("--coretype", default=DEFAULT_CORETYPE,
                   help=f"the second OpenBLAS kernel (default {DEFAULT_CORETYPE}; e.g. Haswell, "
                        f"SkylakeX, Nehalem)")
    p.add_argument("--against", default=None, metavar="CORETYPE",
                   help="the first kernel (default: the one the machine picks)")
    p.add_argument("--paper", default=None, help="narrow a short artifact name to one paper")
    p.add_argument("--quick", action="store_true", help="small grids and folds (smoke check)")
    p.add_argument("--jobs", type=int, default=1, help="--jobs of each rerun")
    p.add_argument("--data-dir", action="append", help="as for a run (default: "
                   "$REPRO_DATA_DIR)")
    p.add_argument("--work", help="directory for the two renderings, caches and logs (default: "
                   "a new temporary directory); never inside the committed reports")
    p.add_argument("--seed-salt", metavar="TEXT",
                   help="both reruns with a second set of seeds (every derived seed's text "
                        "gets TEXT appended; see the run command's --seed-salt)")
    p.add_argument("--show", type=int, default=25,
                   help="moved values listed (largest first; default 25; all are in "
                        "stability.json)")
    return p


@dataclass
class Rerun:
    """One rendering of the targets under one kernel."""
    name: str                       # "machine" or the coretype
    coretype: str | None            # OPENBLAS_CORETYPE, None = the machine's choice
    root: Path
    salt: str | None = None         # the seed salt of both reruns (``--seed-salt``)
    kernel: dict = field(default_factory=dict)
    status: int | None = None
    seconds: float = 0.0

    @property
    def out(self) -> Path:
        return self.root / "reports"

    @property
    def cache(self) -> Path:
        return self.root / "cache"

    @property
    def log(self) -> Path:
        return self.root / "log.txt"

    def env(self) -> dict:
        env = dict(os.environ)
        env["REPRO_CACHE_DIR"] = str(self.cache)
        env.pop("OPENBLAS_CORETYPE", None)
        env.pop(SEED_SALT_ENV, None)
        if self.salt:
            env[SEED_SALT_ENV] = self.salt
        if self.coretype:
            env["OPENBLAS_CORETYPE"] = self.coretype
        return env


def blas_kernel(env: dict) -> dict:
    """What BLAS a process started with ``env`` uses: threadpoolctl's description of it
    (``internal_api``: openblas, mkl, …; ``architecture``: the kernel OpenBLAS picked)."""
    try:
        done = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True,
                              text=True, timeout=120)
        return json.loads(done.stdout.strip().splitlines()[-1]) if done.returncode == 0 else {}
    except (OSError, ValueError, IndexError, subprocess.TimeoutExpired):
        return {}


def command(targets: list[str], rerun: Rerun, args) -> list[str]:
    cmd = [*PROGRAM, *targets, "--out", str(rerun.out), "--no-pdf",
           "--jobs", str(max(1, int(args.jobs)))]
    if args.quick:
        cmd.append("--quick")
    for d in args.data_dir or []:
        cmd += ["--data-dir", d]
    return cmd


def run_one(targets: list[str], rerun: Rerun, args, say=print) -> None:
    rerun.root.mkdir(parents=True, exist_ok=True)
    rerun.kernel = blas_kernel(rerun.env())
    arch = rerun.kernel.get("architecture") or rerun.kernel.get("internal_api") or "unknown"
    say(f"rerunning under {rerun.name} (BLAS kernel: {arch}); log: {rerun.log}")
    t0 = time.perf_counter()
    with open(rerun.log, "w", encoding="utf-8") as log:
        rerun.status = subprocess.run(command(targets, rerun, args), env=rerun.env(),
                                      stdout=log, stderr=subprocess.STDOUT).returncode
    rerun.seconds = time.perf_counter() - t0


def rendered(out: Path, targets: list[str]) -> dict[str, list[dict]]:
    """``{"<paper>/<artifact>": records}`` of the ``targets`` (``paper.artifact``) in a
    rendering — a run also renders the artifacts that share its runs, where the directory has
    none yet: they are not compared."""
    want = {t.replace(".", "/", 1) for t in targets}
    found = {}
    for path in sorted(Path(out).glob("*/*.json")):
        if path.name.endswith(NOT_RECORDS) or f"{path.parent.name}/{path.stem}" not in want:
            continue
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(data, list):
            found[f"{path.parent.name}/{path.stem}"] = data
    return found


_number = number           # the one definedness rule (repro.evidence.record)


def _scale(rec: dict) -> tuple[float | None, str]:
    """The run-to-run size a move is measured against: the sd over replicates (``spread``)
    when the record has replicates, else the half-width of the 95% interval of its d (or of
    its own interval: a paired test)."""
    if rec.get("deterministic"):
        n = rec.get("replicates") or 1
        return None, ("computed once (deterministic)" if n <= 1
                      else f"identical in its {n} replicates")
    sd = _number(rec.get("spread"))
    if sd is not None and (rec.get("replicates") or 0) > 1:
        return sd, f"sd over {rec['replicates']} replicates"
    ci = rec.get("d_ci95") or rec.get("ci95")
    if isinstance(ci, (list, tuple)) and len(ci) == 2 and all(_number(c) is not None for c in ci):
        return (ci[1] - ci[0]) / 2, "95% half-width"
    return None, ""


#: moves between these verdicts (or claim outcomes) contradict each other: never allowed
_OPPOSED = ({"reproduced", "deviates"}, {"claim: replicated", "claim: reversed"},
            {"claim: replicated", "claim: not replicated"})
#: at most this share of verdicts may move into or out of "inconclusive"
INCONCLUSIVE_SHARE = 0.02


def _kind_of_flip(old, new) -> str:
    """"opposed" (reproduced ↔ deviates, replicated ↔ reversed or not replicated),
    "inconclusive" (into or out of inconclusive) or "other"."""
    pair = {old, new}
    if pair in _OPPOSED:
        return "opposed"
    if any(str(v).endswith("inconclusive") for v in pair if v):
        return "inconclusive"
    return "other"


def _bound_move(rec_old: dict, rec_new: dict) -> dict | None:
    """How far a value's equivalence bound moved, against the half-width of its own 90%
    interval of d."""
    a, b = _number(rec_old.get("equivalence_bound")), _number(rec_new.get("equivalence_bound"))
    ci = rec_old.get("d_ci90")
    if a is None or b is None or not ci:
        return None
    half = (ci[1] - ci[0]) / 2
    return {"old": a, "new": b, "half_width": half,
            "within": abs(b - a) <= half or abs(b - a) <= 1e-12 * max(1.0, abs(a))}


def compare(base: dict[str, list[dict]], other: dict[str, list[dict]]) -> dict:
    """The values that moved and the verdicts that flipped between two renderings: each flip
    classed (:func:`_kind_of_flip`), and each equivalence bound's move against its own
    interval."""
    moved, flipped, bounds, compared, judged = [], [], [], 0, 0
    for art in sorted(set(base) | set(other)):
        old, new = base.get(art, []), other.get(art, [])
        compared += len(new)
        judged += sum(1 for r in new if r.get("equivalence") or r.get("outcome"))
        olds: dict[tuple, dict] = {}
        news: dict[tuple, dict] = {}
        for r in old:
            olds.setdefault(_cell(r), r)
        for r in new:
            news.setdefault(_cell(r), r)
        for d in differences(old, new):
            where = f"{art}: {_where(d)}"
            if d["old_verdict"] != d["new_verdict"]:
                flipped.append({"where": where, "old": d["old_verdict"], "new": d["new_verdict"],
                                "kind": _kind_of_flip(d["old_verdict"], d["new_verdict"]),
                                "old_value": d["old_value"], "new_value": d["new_value"],
                                "published": d.get("published")})
            a, b = _number(d["old_value"]), _number(d["new_value"])
            if a is None or b is None or a == b:
                continue
            rec = olds.get(_cell(d), {})
            scale, basis = _scale(rec)
            delta = b - a
            moved.append({"where": where, "old": a, "new": b, "delta": delta,
                          "relative": abs(delta) / abs(a) if a else math.inf,
                          "against": None if not scale else abs(delta) / scale,
                          "basis": basis, "published": d.get("published")})
            got = _bound_move(rec, news.get(_cell(d), {}))
            if got is not None:
                bounds.append({"where": where, **got})
    # the values compared with a published one first, then the largest relative move
    moved.sort(key=lambda m: (m["published"] is None, -m["relative"]))
    into = sum(1 for f in flipped if f["kind"] == "inconclusive")
    return {"compared": compared, "judged": judged, "moved": moved, "flipped": flipped,
            "opposed": [f for f in flipped if f["kind"] == "opposed"],
            "inconclusive_moves": into,
            "inconclusive_share": into / judged if judged else 0.0,
            "bounds": bounds, "bounds_beyond": [b for b in bounds if not b["within"]]}


def failed_rule(result: dict) -> list[str]:
    """What the stability rule refuses: a verdict between reproduced and deviates (or a claim
    between replicated and reversed / not replicated), more than 2 % of the judged records
    into or out of inconclusive, an equivalence bound moving more than its own interval."""
    out = []
    if result["opposed"]:
        out.append(f"{len(result['opposed'])} verdict(s) moved between opposed outcomes")
    if result["inconclusive_share"] > INCONCLUSIVE_SHARE:
        out.append(f"{result['inconclusive_moves']} of {result['judged']} judged records "
                   f"({100 * result['inconclusive_share']:.1f}%) moved into or out of "
                   f"inconclusive (at most {100 * INCONCLUSIVE_SHARE:g}%)")
    if result["bounds_beyond"]:
        out.append(f"{len(result['bounds_beyond'])} equivalence bound(s) moved more than "
                   f"their own interval")
    return out


def _cell(r: dict) -> tuple:
    return tuple(None if r.get(k) is None else str(r.get(k)) for k in CELL)


def _where(r: dict) -> str:
    parts = [str(r.get(k)) for k in OVER_FOLDS if r.get(k) is not None]
    if r.get("fold") not in (None, "avg"):
        parts.append(f"fold {r['fold']}")
    return " / ".join(parts)


def _fmt(v: float) -> str:
    return f"{v:.6g}"


def report_lines(result: dict, reruns: list[Rerun], show: int) -> list[str]:
    a, b = reruns
    lines = [f"compared {result['compared']} records: {len(result['moved'])} value(s) moved, "
             f"{len(result['flipped'])} verdict(s) flipped ({a.name} → {b.name}): "
             f"{len(result['opposed'])} between opposed outcomes, "
             f"{result['inconclusive_moves']} into or out of inconclusive "
             f"({100 * result['inconclusive_share']:.1f}% of {result['judged']} judged); "
             f"{len(result['bounds_beyond'])} of {len(result['bounds'])} equivalence bounds "
             f"that moved went beyond their own 90% interval"]
    if result["moved"]:
        lines.append(f"values that moved (those compared with a published value first, then "
                     f"the largest relative move; {min(show, len(result['moved']))} of "
                     f"{len(result['moved'])}):")
        for m in result["moved"][:show]:
            against = (f"; {m['against']:.2g} × the {m['basis']}" if m["against"] is not None
                       else f"; {m['basis']}" if m["basis"] else "")
            pub = "" if m.get("published") is None else f", published {m['published']}"
            lines.append(f"  {m['where']}: {_fmt(m['old'])} → {_fmt(m['new'])} "
                         f"({100 * m['relative']:.2g}%{against}{pub})")
    if result["flipped"]:
        lines.append("verdicts that flipped:")
        for f in result["flipped"]:
            vals = ""
            if f["old_value"] is not None or f["new_value"] is not None:
                vals = f" [{f['old_value']} → {f['new_value']}, published {f['published']}]"
            lines.append(f"  {f['where']}: {f['old']} → {f['new']}{vals} ({f['kind']})")
    for b in result["bounds_beyond"][:show]:
        lines.append(f"  bound beyond its interval: {b['where']}: {_fmt(b['old'])} → "
                     f"{_fmt(b['new'])} (half-width {_fmt(b['half_width'])})")
    return lines


def main(argv, resolve) -> int:
    """The command; ``resolve(names, paper)``: the CLI's target resolver."""
    args = _parser().parse_args(argv)
    if args.jobs < 1:
        raise ReproError(f"--jobs must be at least 1, got {args.jobs}")
    arts = [a for a in resolve(args.targets, args.paper) if not a.timing]
    if not arts:
        raise ReproError("stability: every target is a timing artifact (measured times change "
                         "on every run); nothing to compare")
    work = Path(args.work) if args.work else Path(tempfile.mkdtemp(prefix="repro-stability-"))
    guards.refuse_committed(work, "stability writes its two renderings elsewhere")
    guards.check_writable(work)
    if args.work and work.exists() and any(work.iterdir()):
        raise ReproError(f"--work {work}: not empty; stability needs fresh caches and report "
                         f"directories (give a new or empty directory)")
    targets = [a.id for a in arts]
    reruns = [Rerun(args.against or MACHINE, args.against, work / (args.against or MACHINE),
                    salt=args.seed_salt),
              Rerun(args.coretype, args.coretype, work / args.coretype, salt=args.seed_salt)]
    if reruns[0].name == reruns[1].name:
        raise ReproError(f"--coretype {args.coretype}: the same kernel as the first rerun")
    print(f"stability of {len(targets)} artifact(s) ({', '.join(targets[:6])}"
          f"{', …' if len(targets) > 6 else ''}) in {work}", flush=True)
    for r in reruns:
        run_one(targets, r, args, say=lambda m: print(m, flush=True))
    kernels = [r.kernel.get("architecture") for r in reruns]
    warnings = []
    if any(r.kernel.get("internal_api") not in (None, "openblas") for r in reruns):
        warnings.append(f"the BLAS here is {reruns[0].kernel.get('internal_api')}, not OpenBLAS: "
                        f"OPENBLAS_CORETYPE changes nothing")
    elif kernels[0] and kernels[0] == kernels[1]:
        warnings.append(f"both reruns used the {kernels[0]} kernel: the machine already picks "
                        f"it (choose another with --coretype)")
    for r in reruns:
        got = r.kernel.get("architecture")
        if r.coretype and got and got.lower() != r.coretype.lower():
            warnings.append(f"asked for the {r.coretype} kernel, OpenBLAS ran {got}")
    failed = [r for r in reruns if r.status != 0]
    result = compare(rendered(reruns[0].out, targets), rendered(reruns[1].out, targets))
    summary = {"targets": targets, "quick": bool(args.quick), "work": str(work),
               "seed_salt": args.seed_salt,
               "reruns": [{"name": r.name, "coretype": r.coretype, "kernel": r.kernel,
                           "status": r.status, "seconds": round(r.seconds, 1),
                           "log": str(r.log), "reports": str(r.out)} for r in reruns],
               "warnings": warnings, **result}
    (work / "stability.json").write_text(json.dumps(jsonable(summary), indent=1) + "\n",
                                         encoding="utf-8")
    for line in report_lines(result, reruns, max(0, args.show)):
        print(printable(line, 400))
    for w in warnings:
        print(f"warning: {w}", file=sys.stderr)
    for r in failed:
        print(f"error: the rerun under {r.name} exited with status {r.status} (log: {r.log})",
              file=sys.stderr)
    print(f"details: {work / 'stability.json'}")
    refused = failed_rule(result)
    for line in refused:
        print(f"error: {line}", file=sys.stderr)
    return 1 if failed or refused else 0
