"""Values of a run split by its queries: one run's mean over test queries computed in parts,
each part on one block of the queries, pooled back into the unsplit run's record and table.

A long run whose models are fitted per query (PAMIR's models of the Reuters topics: one
random stream for all of them, each part applying the updates of its own topics) can be split
by queries (``RunLayout.split``, each part on a block).  Each part then returns, for such a
mean, a record with ``query_block = [k, K]`` (block k of K, blocks in the unsplit run's query
order) and the per-query table of its block.  The assembly (:func:`take` per run, then
:func:`pool`) puts the blocks of one key and replicate back together: the table is the
blocks' tables concatenated in block order — the unsplit run's — and the record's value its
mean (:func:`repro.evidence.tables.table_mean`; a value of a blocked record must be that
mean).  A key with a block missing (its part failed or did not run) pools to no value, with
the reason.
"""
from __future__ import annotations

from .record import TABLE_DATA, key, key_text
from .tables import table_mean

#: the field of a record computed on one block of the run's queries: ``[k, K]``
BLOCK = "query_block"


def _where(rec: dict) -> str:
    return key_text({**key(rec), "repeat": rec.get("repeat")})


def take(records: list[dict], tables: list[dict], stash: dict) -> tuple[list, list]:
    """The records and tables of one run without its blocked ones, which go to ``stash``
    (key → block → (record, table)) for :func:`pool`."""
    blocked = [r for r in records if r.get(BLOCK) is not None]
    if not blocked:
        return records, tables
    by_key = {_where(t): t for t in tables}
    used = set()
    for r in blocked:
        where = _where(r)
        k, n = (int(x) for x in r[BLOCK])
        if not 0 <= k < n:
            raise ValueError(f"{r.get('method')}/{r.get('metric')}: query_block {r[BLOCK]!r}: "
                             f"expected [k, K] with 0 ≤ k < K")
        table = by_key.get(where)
        if table is None:
            raise ValueError(f"{r.get('method')}/{r.get('metric')}: a blocked record needs its "
                             f"per-query table in the same run")
        if k in stash.setdefault(where, {}):
            raise ValueError(f"{r.get('method')}/{r.get('metric')}: query block {k} of {n} "
                             f"returned twice")
        stash[where][k] = (n, r, table)
        used.add(where)
    return ([r for r in records if r.get(BLOCK) is None],
            [t for t in tables if _where(t) not in used])


def pool(stash: dict) -> tuple[list[dict], list[dict]]:
    """The pooled records and tables of ``stash`` (:func:`take`), in the order first seen."""
    records, tables = [], []
    for blocks in stash.values():
        sizes = {n for n, _, _ in blocks.values()}
        n = max(sizes)
        first = blocks[min(blocks)][1]
        rec = {k: v for k, v in first.items() if k != BLOCK}
        missing = [k for k in range(n) if k not in blocks]
        if missing or len(sizes) > 1:
            rec["value"] = None
            rec["why"] = (f"query blocks {', '.join(str(k + 1) for k in missing)} of {n} "
                          f"not run" if missing else "query blocks of different splits")
            records.append(rec)
            continue
        parts = [blocks[k][2] for k in range(n)]
        table = {k: v for k, v in parts[0].items() if k not in TABLE_DATA}
        table["qids"] = [q for t in parts for q in t["qids"]]
        table["values"] = [v for t in parts for v in t["values"]]
        if any(t.get("weights") is not None for t in parts):
            table["weights"] = [w for t in parts
                                for w in (t.get("weights") or [1.0] * len(t["values"]))]
        rec["value"] = table_mean(table)
        records.append(rec)
        tables.append(table)
    return records, tables

