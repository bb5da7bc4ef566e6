"""Markdown tables from pytest-benchmark's JSON output (``--benchmark-json``).

    python benchmarks/report_tables.py RUN.json [RUN2.json ...] [--extra] [--extra-keys K,K]

For one run: a line naming its date, commit, machine and load average, then one table per
benchmark group (min, median, max, rounds). For several runs: one table per group with
a row per benchmark and run, each row with its run's date, commit and load, so the same
benchmark can be compared across commits. ``--extra`` adds the scalar figures each
benchmark put in ``extra_info`` (revenue, proven, routes, ...), ``--extra-keys`` only
those named.

pytest-benchmark records ``datetime``, ``commit_info`` (id, dirty) and ``machine_info``
(cpu, python); benchmarks/conftest.py adds ``loadavg`` (1, 5 and 15 minutes, at the
start of the run) to ``machine_info``, because on a shared machine the load says how
far a wall time can be trusted.
"""

from __future__ import annotations

import argparse
import json
import sys


def seconds(value: float) -> str:
    """A time in the unit that keeps it readable: us, ms or s."""
    if value < 1e-3:
        return f"{value * 1e6:.1f} us"
    if value < 1:
        return f"{value * 1e3:.1f} ms"
    return f"{value:.2f} s"


def run_facts(data: dict) -> dict:
    """Date, commit, machine and load of one run, as short strings."""
    commit = data.get("commit_info") or {}
    machine = data.get("machine_info") or {}
    cpu = machine.get("cpu") or {}
    ident = (commit.get("id") or "")[:7] or "-"
    if commit.get("dirty"):
        ident += " (uncommitted changes)"
    brand = cpu.get("brand_raw") or machine.get("processor") or "?"
    cores = cpu.get("count")
    python = machine.get("python_version") or "?"
    load = machine.get("loadavg")
    return {
        "date": (data.get("datetime") or "-")[:16].replace("T", " "),
        "commit": ident,
        "machine": f"{brand}, {cores} cores, Python {python}" if cores else f"{brand}, Python {python}",
        "load": "/".join(f"{x:.1f}" for x in load) if load else "-",
    }


def scalar_keys(benchmarks: list[dict], wanted: list[str] | None) -> list[str]:
    """The extra_info keys to show: ``wanted``, or every key with a number, string or
    boolean value in some benchmark of the group, in first-seen order."""
    if wanted is not None:
        return wanted
    keys: list[str] = []
    for b in benchmarks:
        for k, v in (b.get("extra_info") or {}).items():
            if isinstance(v, (int, float, str, bool)) and k not in keys:
                keys.append(k)
    return keys


def cell(value) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:,.3g}" if abs(value) < 1000 else f"{value:,.0f}"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value).replace("|", "\\|")


def tables(runs: list[dict], extra: bool, wanted: list[str] | None) -> str:
    """The Markdown: a header line per run (one run) or run columns (several runs), then
    one table per group."""
    several = len(runs) > 1
    out: list[str] = []
    if not several:
        f = run_facts(runs[0])
        out.append(f"Measured {f['date']} at commit {f['commit']} on {f['machine']}; "
                   f"load average {f['load']} (1/5/15 min).")
        out.append("")
    groups: dict[str, list[tuple[dict, dict]]] = {}
    for data in runs:
        facts = run_facts(data)
        for b in data.get("benchmarks", []):
            groups.setdefault(b.get("group") or "(no group)", []).append((facts, b))
    for group, rows in groups.items():
        keys = scalar_keys([b for _, b in rows], wanted) if extra or wanted is not None else []
        head = ["benchmark"] + (["date", "commit", "load"] if several else []) + \
            ["min", "median", "max", "rounds"] + keys
        out.append(f"### {group}")
        out.append("")
        out.append("| " + " | ".join(head) + " |")
        out.append("|" + "|".join(["---"] + (["---"] * 3 if several else []) + ["---:"] * (4 + len(keys))) + "|")
        for facts, b in sorted(rows, key=lambda r: (r[1].get("name", ""), r[0]["date"])):
            s = b.get("stats") or {}
            line = [cell(b.get("name"))]
            if several:
                line += [facts["date"], facts["commit"], facts["load"]]
            line += [seconds(s["min"]), seconds(s["median"]), seconds(s["max"]), str(s.get("rounds", ""))]
            info = b.get("extra_info") or {}
            line += [cell(info.get(k)) for k in keys]
            out.append("| " + " | ".join(line) + " |")
        out.append("")
    return "\n".join(out)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description="Markdown tables from pytest-benchmark JSON files.")
    p.add_argument("runs", nargs="+", metavar="RUN.json")
    p.add_argument("--extra", action="store_true", help="add each benchmark's scalar extra_info figures")
    p.add_argument("--extra-keys", metavar="K,K", help="add only these extra_info keys")
    args = p.parse_args(argv)
    runs = []
    for path in args.runs:
        with open(path, encoding="utf-8") as fh:
            runs.append(json.load(fh))
    wanted = [k.strip() for k in args.extra_keys.split(",") if k.strip()] if args.extra_keys else None
    sys.stdout.write(tables(runs, args.extra, wanted))
    return 0


if __name__ == "__main__":
    sys.exit(main())
