"""The HTML report of `rulewright tune --report DIR`: a plot of each target across the searched values.

Owns one self-contained folder (written atomically by report.write_folder):
index.html with the targets, how the search ran, the policy-sensitivity
warnings and the ranked table of every candidate (each target's mean,
interval and verdict, meets, games, why it stopped), and one PNG per target
and policy: a panel per varied name, its values along the x axis, every
candidate that has that value as a point with its interval, coloured by its
verdict, over the band shaded green, so a designer sees which values move the
measure into the band. matplotlib (Agg) is imported only through report.py.
"""
from __future__ import annotations

import html
import math
import os
import textwrap

from .report import _STYLE, _plt, _slug, write_folder
from .targets import INSIDE, OUTSIDE, UNDECIDED

_COLORS = {INSIDE: "#27ae60", OUTSIDE: "#c0392b", UNDECIDED: "#8e44ad", "objective": "#2c3e50"}


def _plot(plt, rep, search, k: int, path: str) -> None:
    target = rep.targets[k]
    axes = rep.axes
    cols = min(3, len(axes))
    rows = math.ceil(len(axes) / cols)
    fig, grid = plt.subplots(rows, cols, figsize=(4.2 * cols, 3.2 * rows), squeeze=False)
    cands = [c for c in search.candidates if c.error is None and c.estimates and c.estimates[k].mean is not None]
    for i, axis in enumerate(axes):
        ax = grid[i // cols][i % cols]
        values = (sorted(axis.values) if all(isinstance(v, int) and not isinstance(v, bool) for v in axis.values)
                  else list(axis.values))  # numbers in order along the axis; names as declared
        pos = {v: j for j, v in enumerate(values)}
        for n, c in enumerate(cands):
            v = c.options[axis.name] if axis.kind == "option" else c.readings[axis.name]
            e = c.estimates[k]
            x = pos[v] + (((n * 0.618) % 1) - 0.5) * 0.5  # a fixed spread, so points of one value do not hide
            color = _COLORS["objective"] if target.objective else _COLORS[e.verdict]
            low = e.lo if math.isfinite(e.lo) else e.mean
            high = e.hi if math.isfinite(e.hi) else e.mean
            ax.plot([x, x], [low, high], color=color, lw=1.2, alpha=0.7)
            ax.plot([x], [e.mean], "o", color=color, ms=3.5 if len(cands) > 40 else 5)
        ax.set_xticks(range(len(values)))
        ax.set_xticklabels([str(v).lower() if isinstance(v, bool) else str(v) for v in values], fontsize=8,
                           rotation=20 if max(len(str(v)) for v in values) > 8 else 0)
        ax.set_xlim(-0.6, len(values) - 0.4)
        ax.set_title(f"{axis.name} ({'option' if axis.kind == 'option' else 'reading'})", fontsize=9)
        if target.share:
            ax.yaxis.set_major_formatter(plt.FuncFormatter(lambda y, _p: f"{y:.0%}"))
        vals = [x for c in cands for x in (c.estimates[k].lo, c.estimates[k].mean, c.estimates[k].hi)
                if math.isfinite(x)]
        if vals and not target.objective:  # keep the band in view, but not an open end of it
            ends = [b for b in (target.lo, target.hi) if b is not None]
            ax.set_ylim(min(vals + ends) - 0.05 * (max(vals + ends) - min(vals + ends) or 1),
                        max(vals + ends) + 0.05 * (max(vals + ends) - min(vals + ends) or 1))
        if not target.objective:  # the band; an open end drawn just past the view (Agg mis-draws a span to 1e18)
            bottom, top = ax.get_ylim()
            room = top - bottom or 1.0
            ax.axhspan(target.lo if target.lo is not None else bottom - room,
                       target.hi if target.hi is not None else top + room, color="#d5f5e3", lw=0, zorder=0)
            ax.set_ylim(bottom, top)
    for j in range(len(axes), rows * cols):
        grid[j // cols][j % cols].axis("off")
    what = "lower is better" if target.direction == "min" else "higher is better" if target.direction == "max" \
        else "green band: the target; green points inside it, red outside, purple undecided"
    title = f"{target.text} ({search.policy} players): {what}"
    fig.suptitle(textwrap.fill(title, 50 * cols), fontsize=10)  # one panel is narrow: the title wraps, not clips
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def _cell(e) -> str:
    text = html.escape(e.shown)
    return text if e.target.objective else f"<span class='{e.verdict}'>{text} {e.verdict}</span>"


def _table(rep, search) -> str:
    esc = html.escape
    head = "".join(f"<th>{esc(t.text)}</th>" for t in rep.targets)
    rows = []
    for c in search.ranked:
        if c.error:
            rows.append(f"<tr><td>{c.rank}</td><td>{esc(c.changes)}</td><td class='outside'>error</td>"
                        f"<td colspan='{len(rep.targets) + 2}'>{esc(c.error)}</td></tr>")
            continue
        meets = {"true": "inside", "false": "outside"}.get(c.meets, "undecided")
        mark = "*" if c.pareto else ""
        against = " &dagger;" if c.against_text else ""
        extra = " (checked for another policy)" if c.extra else ""
        again = ""
        if c.confirmed is not None:
            f = c.confirmed
            again = (f"<br><span class='note'>on {f.games:,} other games: meets {f.meets}; "
                     + "; ".join(_cell(e) for e in f.estimates) + "</span>")
        rows.append(f"<tr><td>{c.rank}{mark}</td><td title='{esc(c.label)}'>{esc(c.changes)}{against}{extra}</td>"
                    f"<td class='{meets}'>{c.meets}{again}</td>" + "".join(f"<td>{_cell(e)}</td>" for e in c.estimates)
                    + f"<td>{c.games:,}</td><td>{esc(c.stopped)}</td></tr>")
    return (f"<table><tr><th>#</th><th>variant (what differs from the defaults)</th><th>meets</th>{head}"
            "<th>games</th><th>stopped</th></tr>" + "".join(rows) + "</table>")


def plot_name(rep, search, k: int) -> str:
    """The file of the plot of target k under one policy's search (the table's tune page shows it too)."""
    prefix = f"{_slug(search.policy)}-" if len(rep.searches) > 1 else ""
    return f"{prefix}target-{k + 1}-{_slug(rep.targets[k].measure)}.png"


def _files(plt, rep, directory: str) -> list[str]:
    esc = html.escape
    names: list[str] = []
    parts = [f"<!doctype html><meta charset='utf-8'><title>Tuning {esc(rep.spec)}</title>",
             _STYLE.replace("</style>", ".inside{color:#27ae60}.outside{color:#c0392b}</style>"),
             f"<h1>Tuning {esc(rep.game)} ({esc(rep.spec)})</h1>",
             "<h2>Targets</h2><ul>" + "".join(f"<li><code>{esc(t.text)}</code></li>" for t in rep.targets) + "</ul>",
             f"<p>Searched over {', '.join(esc(a.name) for a in rep.axes)} ({rep.space:,} variants); "
             f"{rep.players} players, master seed {rep.seed}, every candidate on the same game seeds. Each candidate "
             f"played batches of {rep.games} games growing to {rep.max_games:,}, and stopped as soon as a band was "
             "surely missed. Intervals: anytime-valid confidence sequences (they hold after every batch, so stopping "
             f"early does not raise the error rate), {rep.level:.0%} over the targets of a candidate together "
             "(Bonferroni). <b>inside</b>: the whole interval lies in the band; <b>outside</b>: none of it does; "
             "<b>undecided</b>: neither yet. A candidate <b>meets</b> the targets when every band is inside. * marks "
             "the Pareto set (no other candidate beats them: surely better on a target, surely worse on none); "
             "&dagger; a reading the rulebook's "
             f"words rule out. {rep.seconds:.1f} s, CPU {rep.cpu_seconds:.1f} s.</p>"]
    if rep.sensitivity:
        parts.append("<h2>Who plays</h2><ul>" + "".join(f"<li class='flag'>{esc(n)}</li>" for n in rep.sensitivity)
                     + "</ul>")
    for search in rep.searches:
        best = search.best
        how = "every variant" if search.mode == "exhaustive" else f"{len(search.candidates)} variants chosen by Optuna"
        parts.append(f"<h2 id='{esc(_slug(search.policy))}'>{esc(search.policy)} players</h2>"
                     f"<p>{how}; {search.games:,} games; {search.seconds:.1f} s. Best: "
                     f"<b>{esc(best.label) if best else 'none'}</b> (meets: {best.meets if best else '-'}).</p>")
        for k, t in enumerate(rep.targets):
            png = plot_name(rep, search, k)
            _plot(plt, rep, search, k, os.path.join(directory, png))
            names.append(png)
            parts.append(f"<h3>{esc(t.text)}</h3><img src='{esc(png)}' alt='{esc(t.text)} across the searched "
                         "values' style='max-width:100%'>")
        parts.append("<h3>Every candidate, ranked</h3>" + _table(rep, search))
    with open(os.path.join(directory, "index.html"), "w", encoding="utf-8") as fh:
        fh.write("\n".join(parts) + "\n")
    return names + ["index.html"]


def write_tune_report(rep, directory: str) -> str:
    """Write the report of a TuneReport; returns the path of index.html (nothing half-written on failure)."""
    plt = _plt()
    return write_folder(directory, lambda tmp: _files(plt, rep, tmp))
