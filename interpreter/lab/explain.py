"""`rulewright explain`: a spec as readable Markdown rules.

Owns rendering the spec for a reviewer: every rule's text beside the
rulebook sentence it encodes (`rule:`), the components with their counts,
the options, every ambiguity with its readings and default, and every
assumption the spec had to make. It reads the checked spec; it runs nothing.
"""
from __future__ import annotations

from ..lang import boards
from ..lang.decks import describe_count
from ..lang.model import Code, Spec
from .trace import rulebook_path, rulebook_problem, trace


def _code(c: Code | None) -> str:
    if c is None:
        return ""
    text = c.text.value.strip("\n")
    return f"```\n{text}\n```\n" if "\n" in text else f"`{text}`"


def _quote(rule: str | None) -> str:
    return f"> {rule}\n\n" if rule else "> *(no rulebook sentence cited)*\n\n"


def _cards(spec: Spec, comps: dict, decls: dict, out: list[str]) -> None:
    """The components table: a row per card type (one per deck product), and the total."""
    out.append(_quote(comps.get("rule")))
    out.append("| card | count | starts in | properties | rulebook |\n|---|---:|---|---|---|")
    shown: set[str] = set()
    for c in spec.cards.values():
        decl = decls.get(c.decl or c.name, {})
        each = decl.get("each")
        if each:  # a deck product: one row for the declaration
            if c.decl in shown:
                continue
            shown.add(c.decl)
            types = [t for t in spec.cards.values() if t.decl == c.decl]
            props = ", ".join(f"{k}={v}" for k, v in c.props.items() if k not in each)
            out.append(f"| {c.decl}: {len(types)} types, each of {' x '.join(each)} | {describe_count(c)} each | {c.zone} "
                       f"| {props} | {decl.get('rule', '')} |")
            continue
        props = ", ".join(f"{k}={v}" for k, v in c.props.items())
        out.append(f"| {c.label} | {describe_count(c)} | {c.zone} | {props} | {decl.get('rule', '')} |")
    if any(c.counts is not None or c.per_seat or c.count_code is not None for c in spec.cards.values()):
        totals = {n: sum(c.in_play(n) * (n if c.per_seat else 1) for c in spec.cards.values())
                  for n in range(spec.min_players, spec.max_players + 1)}
        out.append("\nTotal: " + ", ".join(f"{t} cards with {n} players" for n, t in totals.items()) + ".\n")
    else:
        out.append(f"\nTotal: {sum(c.count for c in spec.cards.values())} cards.\n")


def explain(spec: Spec, verdicts: dict[str, tuple[str, dict[str, str]]] | None = None) -> str:
    """Markdown. `verdicts`: ambiguity -> (verdict, interpretation -> verdict), from the lab."""
    d = spec.doc.data
    rb = spec.rulebook
    out = [f"# {spec.name}\n"]
    if rb:
        out.append(f"Rulebook: *{rb.get('title', '?')}*" + (f", {rb['publisher']}" if rb.get("publisher") else "")
                   + (f" ({rb['year']})" if rb.get("year") else "") + ".\n")
    out.append(f"Players: {spec.min_players} to {spec.max_players}.\n")
    if spec.teams is not None:  # partnerships (lang/teams.py)
        sides = spec.teams.sides(spec.max_players)
        out.append("Sides: " + "; ".join(f"{spec.teams.name(k)} (seats {', '.join(str(p + 1) for p in side)})"
                                         for k, side in enumerate(sides)) + ".\n")
    secrets = [f"`{v.name}` ({v.visible})" for scope in ("global", "player") for v in spec.vars[scope].values()
               if v.visible != "public" and v.key is None] + \
        [f"`{kv.name}` ({spec.vars[kv.scope][f'{kv.name}[{kv.keys[0]}]'].visible})" for scope in ("global", "player")
         for kv in spec.keyed[scope].values() if spec.vars[kv.scope][f"{kv.name}[{kv.keys[0]}]"].visible != "public"]
    if secrets:  # secrets that are not cards (lang/hidden.py)
        out.append("Hidden variables: " + ", ".join(secrets) + ".\n")
    out.append("## Components\n")
    comps = d.get("components") or {}  # a game without cards has none
    decls = comps.get("cards") or {}
    if not spec.cards:
        out.append("No cards" + (f": \"{comps['rule']}\"" if comps.get("rule") else ".") + "\n")
    else:
        _cards(spec, comps, decls, out)
    out.append("## Zones\n")
    if not spec.zones:
        out.append("No zones.")
    for z in spec.zones.values():
        rule = (d.get("zones") or {}).get(z.name, {}).get("rule")
        out.append(f"- **{z.label}** (`{z.name}`, {'one per player' if z.owner == 'player' else 'shared'}, "
                   f"{z.visibility})" + (f": \"{rule}\"" if rule else ""))
    if spec.boards:
        out.append("\n## Boards\n")
        out.extend(boards.describe(spec))
    if spec.options:
        out.append("\n## Options\n")
        for o in spec.options.values():
            out.append(f"- **{o.label}** (`{o.name}`): {', '.join(map(str, o.values))}; default {o.default}."
                       + (f" \"{o.rule}\"" if o.rule else ""))
    out.append("\n## Setup\n")
    if spec.setup:
        out.append(_quote(d["setup"].get("rule")) + _code(spec.setup))
    out.append("\n## Turn\n")
    out.append(_quote(d["flow"].get("rule")))
    for name, a in spec.actions.items():
        out.append(f"### Action: {a.label if a.label != name and '{' not in a.label else name}\n")
        if "{" in a.label:
            out.append(f"Shown as `{a.label}`.\n")
        out.append(_quote(a.rule))
        if a.when:
            out.append(f"Allowed when: {_code(a.when)}\n")
        for k, (pname, pcode) in enumerate(a.params.items()):  # a move with two ends: the second from the first
            src = pcode.text.value.strip() if pcode is not None else "?"
            out.append(f"{'Chooses' if k == 0 else 'then'} `{pname}` from `{src}`"
                       + (".\n" if k == len(a.params) - 1 else ","))
        out.append(_code(a.do))
    for name, p in spec.procedures.items():
        out.append(f"### {name}\n")
        out.append(_quote(p.rule))
        out.append(_code(p.do))
    out.append("\n## End\n")
    out.append(_quote(d["end"].get("rule")))
    if spec.end_when:
        out.append(f"The game ends when {_code(spec.end_when)}.\n")
    if spec.ambiguities:
        out.append("\n## Ambiguities\n")
        for a in spec.ambiguities.values():
            out.append(f"### {a.name}\n")
            out.append(f"> {a.quote}\n" + (f"\n*({a.where})*\n" if a.where else ""))
            measured = (verdicts or {}).get(a.name)
            for k, v in a.interpretations.items():
                mark = " **(default)**" if k == a.default else (
                    " **(contradicts the rulebook's text)**" if k in a.contradicts_text else "")
                m = f" *(measured: {measured[1][k]})*" if measured and k in measured[1] else ""
                out.append(f"- `{k}`{mark}: {v}{m}")
            if a.why:
                out.append(f"\nWhy the default: {a.why}")
            if measured:
                out.append(f"\n**Verdict: {measured[0]}.**")
            out.append("")
    if spec.assumptions:
        out.append("\n## Assumptions (not in the rulebook)\n")
        for k, v in spec.assumptions.items():
            out.append(f"- **{k}**: {v}")
    if spec.heuristic is not None:
        out.append("\n## Heuristic (for bots, not a rule)\n")
        why = (d.get("heuristics") or {}).get("why")
        out.append(f"A position is worth {_code(spec.heuristic)} to player `me`." + (f" {why}" if why else ""))
    out.extend(_traceability(spec))
    return "\n".join(out) + "\n"


def _traceability(spec: Spec) -> list[str]:
    paras = trace(spec)
    if paras is None:
        problem = rulebook_problem(spec)
        if problem:
            return ["\n## Traceability\n", f"The rulebook text `{spec.rulebook.get('source')}` is not read: {problem}."]
        return ["\n## Traceability\n", "The spec names no rulebook text (`game.rulebook.source`)."]
    counts = {"encoded": 0, "flavour": 0, "noted": 0, "not encoded": 0}
    for p in paras:
        counts[p.status] += 1
    out = ["\n## Traceability\n",
           f"`{rulebook_path(spec)}`: {len(paras)} paragraphs; {counts['encoded']} encoded by some rule, "
           f"{counts['flavour']} flavour, {counts['noted']} not encoded with a note why, "
           f"**{counts['not encoded']} not accounted for**.\n",
           "| line | rulebook | status | encoded by (or why not) |", "|---:|---|---|---|"]
    said: dict[str, int] = {}  # a note shown once, then named by the line it was shown at
    for p in paras:
        text = p.text if len(p.text) <= 90 else p.text[:87] + "..."
        status = f"**{p.status}**" if p.status == "not encoded" else p.status
        by = ", ".join(p.encoded_by[:4])
        if p.status == "noted":
            by = p.note if p.note not in said else f"(the note at line {said[p.note]})"
            said.setdefault(p.note, p.line)
        out.append(f"| {p.line} | {text.replace('|', '/')} | {status} | {(by or '').replace('|', '/')} |")
    return out
