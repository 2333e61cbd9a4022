"""HTML reports with plots for the ambiguity lab.

Owns: one self-contained folder (index.html and one PNG per ambiguity and
policy, a forest plot of every measured difference with its interval and
the band of its practical margin) that a person would rather look at than
read: the margins, the three verdicts, how many more games would decide an
undecided reading, and, for a run under several policies, which verdicts
depend on who plays. Files are written atomically; matplotlib is
an optional dependency (`pip install rulewright[report]`), imported only
here, with the non-interactive Agg backend.
"""
from __future__ import annotations

import html
import os
import re
import shutil
import tempfile
from typing import Callable


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


_COLORS = {"material": "#c0392b", "immaterial": "#27ae60", "undecided": "#8e44ad", "unreachable": "#b7950b"}


def _forest(plt, amb, path: str, policy: str = "random") -> None:
    rows = []
    for r in amb.readings:
        for iv in r.intervals:
            if iv.measure == "errors":
                continue
            rows.append((f"{r.interpretation}: {iv.measure}", iv, r.verdict))
    height = max(2.0, 0.32 * len(rows) + 1.2)
    fig, axes = plt.subplots(1, 2, figsize=(9, height), gridspec_kw={"width_ratios": [1, 1]})
    for ax, want_rate, title in ((axes[0], False, "game length, margin, measures (difference)"),
                                 (axes[1], True, "win shares and stall rate (difference)")):
        sel = [x for x in rows if x[1].rate == want_rate]
        ys = list(range(len(sel)))
        for y, (label, iv, verdict) in zip(ys, sel):
            if iv.margin is not None:  # the practical margin: inside it, a difference does not matter
                ax.fill_betweenx([y - 0.4, y + 0.4], -iv.margin, iv.margin, color="#d5f5e3", lw=0)
            color = _COLORS.get(iv.verdict, "#555555")
            ax.plot([iv.lo, iv.hi], [y, y], color=color, lw=2)
            ax.plot([iv.mean], [y], "o", color=color)
        ax.axvline(0, color="#999999", lw=1, ls="--")
        ax.set_yticks(ys)
        ax.set_yticklabels([x[0] for x in sel], fontsize=8)
        ax.set_title(title, fontsize=9)
        ax.invert_yaxis()
        if want_rate:
            ax.xaxis.set_major_formatter(plt.FuncFormatter(lambda v, _p: f"{v:+.0%}"))
    fig.suptitle(f"{amb.name} ({policy} players): {amb.verdict}; green band: the margin", fontsize=11,
                 color=_COLORS.get(amb.verdict, "black"))
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def write_lab_report(rep, directory: str) -> str:
    """Write the report; returns the path of index.html (atomically: see write_folder)."""
    plt = _plt()
    return write_folder(directory, lambda tmp: _write_files(plt, rep, tmp))


def write_folder(directory: str, fill: Callable[[str], list[str]]) -> str:
    """Make a report folder with `fill(tmp)` (which writes its files in tmp and returns their names, index.html
    last); returns the path of index.html.

    Every file is made in a temporary folder first; only when all of them are
    written do they move into `directory` (the folder itself is renamed into
    place when it is new), so a failure leaves no report half-written.
    """
    parent = os.path.dirname(os.path.abspath(directory))
    os.makedirs(parent, exist_ok=True)
    tmp = tempfile.mkdtemp(dir=parent, prefix=".rulewright-report-")
    try:
        names = fill(tmp)
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


_STYLE = ("<style>body{font-family:sans-serif;max-width:1100px;margin:2em auto;color:#222}"
          "table{border-collapse:collapse;margin:0.5em 0 1em}"
          "td,th{padding:4px 8px;border-bottom:1px solid #ddd;text-align:left}"
          ".material{color:#c0392b;font-weight:bold}.immaterial{color:#27ae60}.unreachable{color:#b7950b}"
          ".undecided{color:#8e44ad;font-style:italic}.flag{color:#c0392b;font-weight:bold}"
          "blockquote{color:#555;border-left:3px solid #ccc;margin:0.5em 0;padding-left:1em}"
          ".note{color:#555;font-size:0.92em}</style>")


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text)


def _need(n: int | None, verdict: str) -> str:
    if verdict != "undecided":
        return ""
    return f"about {n:,} games" if n else "more than can be estimated"


def _margins_html(rep) -> str:
    esc = html.escape
    rows = []
    for name, m in rep.margins.items():
        if m["value"] is None:
            continue
        value = (f"&plusmn;{m['value'] * 100:.2g} points" if name in ("wins", "stalled", "errors")
                 else f"&plusmn;{m['value']:.3g}")
        rows.append(f"<tr><td>{esc(name)}</td><td>{value}</td><td>{esc(m['set'])}"
                    f"{' of the default readings&#39; mean' if m['relative'] else ''}</td></tr>")
    return ("<h2>Margins</h2><p class='note'>A difference inside its margin does not matter to a designer. "
            "<b>material</b>: the whole interval lies outside the margin; <b>immaterial</b>: it lies inside "
            "(equivalence shown); <b>undecided</b>: neither yet, play more games.</p>"
            "<table><tr><th>measure</th><th>margin</th><th>set as</th></tr>" + "".join(rows) + "</table>")


def _lab_html(plt, rep, directory: str, names: list[str], anchor: str, prefix: str) -> list[str]:
    esc = html.escape
    how = {"sequential": f"played in batches until decided (cap {rep.max_games or 0:,} games), judged with "
                         "anytime-valid confidence sequences, so looking after every batch does not raise the "
                         "error rate",
           "precision": "played until the intervals were narrow enough",
           "fixed": "a fixed number of games"}[rep.mode]
    b = rep.baseline
    parts = [f"<h2 id='{esc(anchor)}'>Players: {esc(rep.policy)}</h2>",
             f"<p>{rep.games:,} games {'under the default, each interpretation until decided' if rep.mode == 'sequential' else 'per interpretation'} ({how}); {rep.players} players, master seed {rep.seed}; "
             f"the same seeds for every interpretation; {rep.seconds:.1f} s. Intervals: {rep.level:.0%}, "
             f"Bonferroni-corrected over the measures of each comparison. Default readings: {b['finished']} "
             f"finished, {b['stalled']} stalled, {b['turns_mean']} turns on average"
             + ("; wins by side: " + ", ".join(f"{esc(s['name'])} {s['wins']:.1%}" for s in b["side_wins"])
                if b.get("side_wins") else "") + ".</p>",
             "<table><tr><th>ambiguity</th><th>verdict</th><th>games to decide</th><th>impact</th>"
             "<th>default</th></tr>"]
    for a in rep.ambiguities:
        parts.append(f"<tr><td><a href='#{esc(anchor)}-{esc(a.name)}'>{esc(a.name)}</a></td>"
                     f"<td class='{a.verdict}'>{a.verdict}</td><td>{_need(a.games_to_decide, a.verdict)}</td>"
                     f"<td>{a.impact:.1f}</td><td>{esc(a.default)}</td></tr>")
    parts.append("</table>")
    for a in rep.ambiguities:
        png = f"{prefix}{_slug(a.name)}.png"
        _forest(plt, a, os.path.join(directory, png), rep.policy)
        names.append(png)
        parts.append(f"<h3 id='{esc(anchor)}-{esc(a.name)}'>{esc(a.name)}: <span class='{a.verdict}'>{a.verdict}"
                     f"</span></h3>")
        parts.append(f"<blockquote>{esc(a.quote)}</blockquote>")
        items = []
        for r in a.readings:
            extra = " (identical games)" if r.identical and r.verdict != "unreachable" else ""
            extra += "; contradicts the rulebook text" if r.contradicts_text else ""
            need = _need(r.games_to_decide, r.verdict)
            played = f", {r.games:,} games" if r.games and r.verdict != "unreachable" else ""
            items.append(f"<li><b>{esc(r.interpretation)}</b> (<span class='{r.verdict}'>{r.verdict}</span>"
                         f"{played}{extra}{'; ' + need + ' would decide it' if need else ''}): {esc(r.description)}</li>")
        parts.append("<ul>" + "".join(items) + f"<li><b>{esc(a.default)}</b> (default)</li></ul>")
        parts.append(f"<img src='{esc(png)}' alt='differences for {esc(a.name)}' style='max-width:100%'>")
    return parts


def _sensitivity_html(lab) -> str:
    esc = html.escape
    head = "".join(f"<th>{esc(p)}</th>" for p in lab.policies)
    rows = []
    for s in lab.sensitivity:
        cells = "".join(f"<td class='{s.verdicts[p]}'>{s.verdicts[p]}</td>" for p in lab.policies)
        flag = ("<span class='flag'>random-play artefact</span>" if s.random_artefact else
                "<span class='flag'>depends on the players</span>" if s.policy_dependent else "no")
        rows.append(f"<tr><td>{esc(s.ambiguity)}</td>{cells}<td>{flag}</td><td class='note'>{esc(s.note)}</td></tr>")
    return ("<h2>Who plays: policy sensitivity</h2><p class='note'>Each policy plays every seat. A verdict that "
            "holds only for random players is a finding about random players (a reading that adds a silly option "
            "changes random play, not play by people).</p>"
            f"<table><tr><th>ambiguity</th>{head}<th>depends on the players?</th><th></th></tr>"
            + "".join(rows) + "</table>")


def _write_files(plt, rep, directory: str) -> list[str]:
    """The report's files in `directory`; returns their names, index.html last.

    `rep` is one LabReport, or a PolicyLab (the lab under several policies).
    """
    names: list[str] = []
    esc = html.escape
    reports = getattr(rep, "reports", None) or [rep]
    parts = [f"<!doctype html><meta charset='utf-8'><title>Ambiguities: {esc(rep.spec)}</title>", _STYLE,
             f"<h1>What each reading of {esc(rep.spec)} changes</h1>", _margins_html(reports[0])]
    if hasattr(rep, "sensitivity"):
        parts.append(_sensitivity_html(rep))
        parts.append("<p>" + " &middot; ".join(f"<a href='#{esc(_slug(r.policy))}'>{esc(r.policy)} players</a>"
                                              for r in reports) + "</p>")
    for r in reports:  # one policy: a plot per ambiguity, named after it; several: prefixed by the policy
        prefix = f"{_slug(r.policy)}-" if len(reports) > 1 else ""
        parts.extend(_lab_html(plt, r, directory, names, _slug(r.policy), prefix))
    with open(os.path.join(directory, "index.html"), "w", encoding="utf-8") as fh:
        fh.write("\n".join(parts) + "\n")
    return names + ["index.html"]
