"""HTML reports with plots for the ambiguity lab.

Owns: one self-contained folder (index.html and one PNG per ambiguity, a
forest plot of every measured difference with its interval) that a person
would rather look at than read. Files are written atomically; matplotlib is
an optional dependency (`pip install rulewright[report]`), imported only
here, with the non-interactive Agg backend.
"""
from __future__ import annotations

import html
import os
import shutil
import tempfile


class ReportError(RuntimeError):
    pass


def _plt():
    try:
        import matplotlib
    except ImportError:
        raise ReportError("--report needs matplotlib: pip install 'rulewright[report]'") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


_COLORS = {"material": "#c0392b", "immaterial": "#27ae60", "unreachable": "#b7950b"}


def _forest(plt, amb, path: str) -> None:
    rows = []
    for r in amb.readings:
        for iv in r.intervals:
            if iv.measure == "errors":
                continue
            rows.append((f"{r.interpretation}: {iv.measure}", iv, r.verdict))
    height = max(2.0, 0.32 * len(rows) + 1.2)
    fig, axes = plt.subplots(1, 2, figsize=(9, height), gridspec_kw={"width_ratios": [1, 1]})
    for ax, want_rate, title in ((axes[0], False, "game length and margin (difference)"),
                                 (axes[1], True, "win shares and stall rate (difference)")):
        sel = [x for x in rows if x[1].rate == want_rate]
        ys = list(range(len(sel)))
        for y, (label, iv, verdict) in zip(ys, sel):
            color = _COLORS["material"] if iv.excludes_zero else "#555555"
            ax.plot([iv.lo, iv.hi], [y, y], color=color, lw=2)
            ax.plot([iv.mean], [y], "o", color=color)
        ax.axvline(0, color="#999999", lw=1, ls="--")
        ax.set_yticks(ys)
        ax.set_yticklabels([x[0] for x in sel], fontsize=8)
        ax.set_title(title, fontsize=9)
        ax.invert_yaxis()
        if want_rate:
            ax.xaxis.set_major_formatter(plt.FuncFormatter(lambda v, _p: f"{v:+.0%}"))
    fig.suptitle(f"{amb.name}: {amb.verdict}", fontsize=11, color=_COLORS.get(amb.verdict, "black"))
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def write_lab_report(rep, directory: str) -> str:
    """Write the report; returns the path of index.html.

    Every file is made in a temporary folder first; only when all of them are
    written do they move into `directory` (the folder itself is renamed into
    place when it is new), so a failure leaves no report half-written.
    """
    plt = _plt()
    parent = os.path.dirname(os.path.abspath(directory))
    os.makedirs(parent, exist_ok=True)
    tmp = tempfile.mkdtemp(dir=parent, prefix=".rulewright-report-")
    try:
        names = _write_files(plt, rep, tmp)
        if not os.path.exists(directory):
            os.chmod(tmp, 0o777 & ~_umask())
            os.rename(tmp, directory)
        else:
            for name in names:  # index.html last: it refers to the plots
                os.replace(os.path.join(tmp, name), os.path.join(directory, name))
            os.rmdir(tmp)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return os.path.join(directory, "index.html")


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _write_files(plt, rep, directory: str) -> list[str]:
    """The report's files in `directory`; returns their names, index.html last."""
    names = []
    esc = html.escape
    parts = [f"<!doctype html><meta charset='utf-8'><title>Ambiguities: {esc(rep.spec)}</title>",
             "<style>body{font-family:sans-serif;max-width:1000px;margin:2em auto;color:#222}"
             "td,th{padding:4px 8px;border-bottom:1px solid #ddd;text-align:left}"
             ".material{color:#c0392b;font-weight:bold}.immaterial{color:#27ae60}.unreachable{color:#b7950b}"
             "blockquote{color:#555;border-left:3px solid #ccc;margin:0.5em 0;padding-left:1em}</style>",
             f"<h1>What each reading of {esc(rep.spec)} changes</h1>",
             f"<p>{rep.games} games per interpretation, {rep.players} players, master seed {rep.seed}; "
             f"the same seeds for every interpretation. Intervals: {rep.level:.0%}, Bonferroni-corrected over the "
             f"measures of each comparison. Default readings: {rep.baseline['finished']} finished, "
             f"{rep.baseline['stalled']} stalled, {rep.baseline['turns_mean']} turns on average.</p>",
             "<table><tr><th>ambiguity</th><th>verdict</th><th>impact</th><th>default</th></tr>"]
    for a in rep.ambiguities:
        parts.append(f"<tr><td><a href='#{esc(a.name)}'>{esc(a.name)}</a></td>"
                     f"<td class='{a.verdict}'>{a.verdict}</td><td>{a.impact:.1f}</td><td>{esc(a.default)}</td></tr>")
    parts.append("</table>")
    for a in rep.ambiguities:
        png = f"{a.name}.png"
        _forest(plt, a, os.path.join(directory, png))
        names.append(png)
        parts.append(f"<h2 id='{esc(a.name)}'>{esc(a.name)}: <span class='{a.verdict}'>{a.verdict}</span></h2>")
        parts.append(f"<blockquote>{esc(a.quote)}</blockquote>")
        parts.append("<ul>" + "".join(
            f"<li><b>{esc(r.interpretation)}</b> ({r.verdict}"
            f"{'; contradicts the rulebook text' if r.contradicts_text else ''}): {esc(r.description)}</li>"
            for r in a.readings)
            + f"<li><b>{esc(a.default)}</b> (default)</li></ul>")
        parts.append(f"<img src='{esc(png)}' alt='differences for {esc(a.name)}' style='max-width:100%'>")
    with open(os.path.join(directory, "index.html"), "w", encoding="utf-8") as fh:
        fh.write("\n".join(parts) + "\n")
    return names + ["index.html"]
