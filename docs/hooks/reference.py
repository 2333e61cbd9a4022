"""The language reference, generated from the code, committed as Markdown, and kept current.

- docs/reference/spec.md: every section and field of schema/spec.schema.json (meanings the schema
  does not give come from docs/reference/fields.yaml);
- docs/reference/language.md: every statement and expression of grammar/rules.lark, with its
  meaning and an example from docs/reference/language.yaml;
- docs/reference/builtins.md: every builtin of interpreter/lang/builtins.py, signature, doc, example;
- docs/reference/diagnostics.md: every diagnostic code, from docs/reference/diagnostics.yaml.

The pages are files in the repository (readable without building the site, linked from the
tutorial); regenerate all four after changing any of their sources with one command:

    python docs/hooks/reference.py            # writes the pages; --check: exit 1 if one is stale

As an MkDocs hook, it fails the strict build when a committed page differs from what its sources
give. tests/test_docs.py imports this file to check that each page is current and covers every
field, statement, builtin and code, and that no entry is empty.
"""
from __future__ import annotations

import json
import os
import re
import sys
from typing import Any, Iterator

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from interpreter.lang.builtins import BUILTINS, NAMESPACES, SPECIAL_NAMES  # noqa: E402
from interpreter.lang.reference import grammar_rules, param_words, signature  # noqa: E402

SCHEMA = os.path.join(ROOT, "schema", "spec.schema.json")
LANGUAGE = os.path.join(ROOT, "docs", "reference", "language.yaml")
DIAGNOSTICS = os.path.join(ROOT, "docs", "reference", "diagnostics.yaml")
MINIMAL = "docs/examples/minimal.yaml"


# -- the spec file: the schema -------------------------------------------------------------
def _schema() -> dict:
    with open(SCHEMA, encoding="utf-8") as fh:
        return json.load(fh)


def _resolve(node: dict, root: dict) -> dict:
    while isinstance(node, dict) and "$ref" in node:
        target: Any = root
        for part in node["$ref"].lstrip("#/").split("/"):
            target = target[part]
        node = {**target, **{k: v for k, v in node.items() if k != "$ref"}}
    return node


def _type(node: dict, root: dict) -> str:
    node = _resolve(node, root)
    if "enum" in node:
        return "one of " + ", ".join(f"`{v}`" for v in node["enum"])
    t = node.get("type")
    words = {"object": "mapping", "array": "list", "string": "text", "integer": "whole number",
             "boolean": "true/false", "number": "number"}
    if isinstance(t, list):
        return " or ".join(words.get(x, x) for x in t)
    if t == "array" and isinstance(node.get("items"), dict):
        return f"list of {_type(node['items'], root)}"
    if t is None and ("oneOf" in node or "anyOf" in node):
        return " or ".join(_type(x, root) for x in node.get("oneOf", node.get("anyOf")))
    return words.get(t, t or "any")


def spec_fields() -> Iterator[tuple[str, str, bool, str]]:
    """(dotted path, type, required, description) of every field; `NAME` stands for an entry's name."""
    root = _schema()

    def walk(node: dict, path: str, required: bool, depth: int) -> Iterator[tuple[str, str, bool, str]]:
        node = _resolve(node, root)
        if path:
            desc = node.get("description", "")
            if node.get("default") is not None:
                desc += f" Default: `{node['default']}`."
            yield path, _type(node, root), required, desc.strip()
        if depth > 8:
            return
        req = set(node.get("required", []))
        for k, sub in node.get("properties", {}).items():
            yield from walk(sub, f"{path}.{k}" if path else k, k in req, depth + 1)
        for alt in node.get("oneOf", []) + node.get("anyOf", []):  # a mapping form of a field (`{from, to}`)
            alt = _resolve(alt, root)
            if path and alt.get("type") == "object" and alt.get("properties"):
                req_a = set(alt.get("required", []))
                for k, sub in alt["properties"].items():
                    yield from walk(sub, f"{path}.{k}", k in req_a, depth + 1)
        extra = node.get("additionalProperties")
        if isinstance(extra, dict) and not extra.get("properties") and any(
                _resolve(a, root).get("properties") for a in extra.get("oneOf", []) + extra.get("anyOf", [])):
            yield from walk(extra, f"{path}.NAME", False, depth + 1)
        if isinstance(extra, dict) and (extra.get("properties") or extra.get("$ref") or extra.get("type") == "object"):
            sub = _resolve(extra, root)
            if sub.get("properties") or sub.get("additionalProperties"):
                yield from _entries(sub, path, depth)
        items = node.get("items")
        if isinstance(items, dict):
            sub = _resolve(items, root)
            if sub.get("properties"):
                req_i = set(sub.get("required", []))
                for k, s2 in sub["properties"].items():
                    yield from walk(s2, f"{path}[].{k}", k in req_i, depth + 2)

    def _entries(sub: dict, path: str, depth: int) -> Iterator[tuple[str, str, bool, str]]:
        req_e = set(sub.get("required", []))
        for k, s2 in sub.get("properties", {}).items():
            yield from walk(s2, f"{path}.NAME.{k}", k in req_e, depth + 2)
        extra2 = sub.get("additionalProperties")
        if isinstance(extra2, dict) and _resolve(extra2, root).get("properties"):
            yield from _entries(_resolve(extra2, root), f"{path}.NAME", depth + 1)

    seen = set()
    for f in walk(root, "", False, 0):
        if f[0] not in seen:
            seen.add(f[0])
            yield f


FIELDS = os.path.join(ROOT, "docs", "reference", "fields.yaml")


def field_notes() -> dict[str, str]:
    with open(FIELDS, encoding="utf-8") as fh:
        return yaml.safe_load(fh) or {}


def _note(path: str, notes: dict[str, str]) -> str:
    if path in notes:
        return notes[path]
    for key, text in notes.items():
        if key.startswith("*.") and path.endswith(key[1:]):
            return text
    return ""


def spec_page() -> str:
    root = _schema()
    notes = field_notes()
    out = ["# The spec file", "",
           "Every section and field a spec may have, generated from `schema/spec.schema.json` "
           "(point your editor at that schema for completion of these keys; the "
           "[language server](../guides/editors.md) adds everything inside rule text). `NAME` stands for "
           "the name you give an entry (a zone, an action, a variable ...); `[]` for the items of a list. "
           "Text marked *rule text* is written in the [rules language](language.md).", "",
           f"> {root.get('description', '')}", ""]
    groups: dict[str, list[tuple[str, str, bool, str]]] = {}
    for path, ty, required, desc in spec_fields():
        base, _, default = (" " + desc).partition(" Default: ")
        base = base.strip()
        default = f" Default: {default}" if default else ""
        code = base.startswith("Rules-language text.")
        if code:
            ty = "rule text"
        if code or not base:  # the schema gives no meaning: fields.yaml does (exactly, or by `*.` suffix)
            base = _note(path, notes)
        elif path in notes:  # what the schema says, and more (a default it cannot state, say)
            base = f"{base} {notes[path]}"
        desc = (base + default).strip()
        groups.setdefault(path.split(".")[0].split("[")[0], []).append((path, ty, required, desc))
    for top, rows in groups.items():
        _, ty, _, desc = rows[0]
        out += ["", f"## `{top}`", "", desc, "", f"Type: {ty}."]
        if len(rows) > 1:
            out += ["", "| field | type | required | meaning |", "|---|---|---|---|"]
            out += [f"| `{p}` | {t} | {'yes' if r else ''} | {d.replace('|', '/')} |" for p, t, r, d in rows[1:]]
    return "\n".join(out) + "\n"


# -- the rules language: the grammar ---------------------------------------------------------
def _language() -> dict:
    with open(LANGUAGE, encoding="utf-8") as fh:
        return yaml.safe_load(fh)


def grammar_statements() -> list[str]:
    """The statements of the grammar: the alternatives of `simple_stmt` and `compound_stmt`."""
    rules = grammar_rules()
    out = []
    for holder in ("simple_stmt", "compound_stmt"):
        out += re.findall(r"[a-z_]+", rules[holder])
    return out


def grammar_expressions() -> list[str]:
    """The expressions of the grammar: every alternative named with `-> alias` in the expression rules."""
    rules = grammar_rules()
    out = []
    for name in ("expr", "or_expr", "and_expr", "not_expr", "comparison", "sum", "product", "unary", "postfix",
                 "atom"):
        for alias in re.findall(r"->\s*([a-z_]+)", rules.get(name, "")):
            if alias not in out:
                out.append(alias)
    return out


def _grammar_line(name: str) -> str:
    rules = grammar_rules()
    if name in rules:
        return f"{name}: {rules[name]}"
    for rule, body in rules.items():  # an alias: the alternative that names it
        for alt in body.split("\n"):
            if re.search(rf"->\s*{re.escape(name)}\b", alt):
                return f"{rule}: ... {alt.lstrip('| ').strip()}"
    return name


def _grammar_entries(names: list[str], described: dict) -> list[str]:
    """A section per grammar rule: what it means (docs/reference/language.yaml), its grammar, an example."""
    out: list[str] = []
    for name in names:
        e = described.get(name, {})
        out += [f"### `{name.rstrip('_')}`", "", e.get("means", "*(not described yet: add it to "
                                                                  "docs/reference/language.yaml)*"), "",
                "```text", f"grammar   {_grammar_line(name)}", "```", "", "```text", e.get("example", "").rstrip(),
                "```", ""]
    return out


def language_page() -> str:
    lang = _language()
    out = ["# Statements and expressions", "",
           "The rules language, generated from `grammar/rules.lark` (the definition of each statement and "
           "expression) and `docs/reference/language.yaml` (what it means, an example). "
           "Effects (`do:`, `setup.do`, `start:`, `end:` ...) are blocks of statements, indented like Python; "
           "conditions (`when:`, `until:`, `winners:`, `expect:` ...) are one expression. Every example below "
           "checks as rule text of the small spec `docs/examples/minimal.yaml` (`tests/test_docs.py`).", "",
           "Names every rule can use without declaring them: " +
           ", ".join(f"`{n}` ({what})" for n, (_t, what) in SPECIAL_NAMES.items()) + "; and the namespaces " +
           ", ".join(f"`{n}` ({what})" for n, what in NAMESPACES.items()) + ".", "",
           "## Statements", ""]
    out += _grammar_entries(grammar_statements(), lang["statements"])
    out += ["## Expressions", "", "From the loosest to the tightest binding: `x if c else y`, `or`, `and`, `not`, "
            "comparisons, `+ -`, `* // %`, unary `-`, then fields, indexes and calls.", ""]
    out += _grammar_entries(grammar_expressions(), lang["expressions"])
    out += ["## The whole grammar", "", "```text", open(os.path.join(ROOT, "grammar", "rules.lark"),
                                                        encoding="utf-8").read().rstrip(), "```", ""]
    return "\n".join(out)


# -- builtins -----------------------------------------------------------------------------------
def builtins_page() -> str:
    out = ["# Builtins", "",
           "Every builtin function of the rules language, generated from `interpreter/lang/builtins.py`"
           " (each example there is parsed and checked by the tests). A parameter written `PROP` is a "
           "property name: a card property (`points`) over a list of cards, or a player variable (`chips`) "
           "over a list of players. A zone stands wherever a list of cards may.", "",
           "| builtin | what it gives |", "|---|---|"]
    for n, b in BUILTINS.items():
        out.append(f"| [`{signature(b)}`](#{n}) | {b.doc.split('. ')[0].rstrip('.')}. |")
    for n, b in BUILTINS.items():
        params = signature(b)[len(n) + 1:-1].replace("[", "").replace("]", "").split(", ")
        out += ["", f"## `{n}` {{#{n}}}", "", "```text", signature(b), "```", "", b.doc, ""]
        out += [f"- `{p}`: {w}" for p, w in zip(params, param_words(b)) if p]
        out += ["", "```text", b.example, "```"]
    return "\n".join(out) + "\n"


# -- diagnostics --------------------------------------------------------------------------------
def diagnostics() -> dict:
    with open(DIAGNOSTICS, encoding="utf-8") as fh:
        return yaml.safe_load(fh)


STAGES = {"1": "YAML", "2": "structure (schema)", "3": "rule syntax", "4": "meaning (names, types, references)",
          "5": "playing (run-time, lint)", "0": "internal"}


def diagnostics_page() -> str:
    table = diagnostics()
    out = ["# Diagnostics", "",
           "Every code `rulewright check` (and `run`, `lint`, the language server) can report, generated from "
           "`docs/reference/diagnostics.yaml`. For each: a snippet that produces it and the "
           "same snippet fixed; `tests/test_docs.py` checks both, and fails when the interpreter has a code "
           "this page does not explain. Codes: `E1xx` YAML, `E2xx` structure, `E3xx` rule syntax, `E4xx` "
           "meaning, `W5xx` findings of `lint`, `E6xx`/`W6xx` a game that failed while it ran; `W` codes are warnings.", "",
           f"Most snippets are variants of a small complete spec, `{MINIMAL}` (a press-your-luck game: draw "
           "coins, stop to bank them, a bomb loses the hand); the last ones are complete specs.", "",
           "??? note \"docs/examples/minimal.yaml\"", "", "    ```yaml"]
    with open(os.path.join(ROOT, MINIMAL), encoding="utf-8") as fh:
        out += ["    " + ln if ln else "" for ln in fh.read().rstrip().splitlines()]
    out += ["    ```", "", "| code | meaning |", "|---|---|"]
    for code, e in table.items():
        out.append(f"| [{code}](#{code.lower()}) | {e['title']} |")
    stage = None
    for code, e in table.items():
        if code[1] != stage:
            stage = code[1]
            out += ["", f"## {code[0]}{stage}xx: {STAGES.get(stage, '')}"]
        out += ["", f"### {code}: {e['title']} {{#{code.lower()}}}", ""]
        if e["stage"] == "none":
            out += [f"No snippet shows it: {e['why']}", ""]
            continue
        how = {"check": "`rulewright check`", "lint": f"`rulewright lint -p {e.get('players')} --games "
                                                      f"{e.get('games')}`",
               "run": f"`rulewright run -p {e.get('players')} --seed {e.get('seed')}"
                      + (f" --budget {e['budget']}`" if e.get("budget") else "`")}[e["stage"]]
        out += [f"Reported by {how}.", ""]
        if e.get("why"):
            out += [e["why"], ""]
        if e.get("rulebook"):
            out += ["Beside the spec, `rulebook.txt`:", "", "```text", e["rulebook"].rstrip(), "```", ""]
        out += ["Bad:", "", "```yaml", f"# expect: {code}", e["bad"].rstrip(), "```", "",
                "Fixed:", "", "```yaml", e["fixed"].rstrip(), "```", ""]
    return "\n".join(out) + "\n"


GENERATED = ("<!-- Generated by docs/hooks/reference.py from its sources: do not edit. "
             "Regenerate with `python docs/hooks/reference.py`. -->")

PAGES = {"reference/spec.md": spec_page, "reference/language.md": language_page,
         "reference/builtins.md": builtins_page, "reference/diagnostics.md": diagnostics_page}


def _page(make) -> str:
    return GENERATED + "\n\n" + make()


def stale() -> list[str]:
    """The committed pages that differ from what their sources give now."""
    out = []
    for uri, make in PAGES.items():
        path = os.path.join(ROOT, "docs", uri)
        try:
            with open(path, encoding="utf-8") as fh:
                current = fh.read()
        except FileNotFoundError:
            current = None
        if current != _page(make):
            out.append(f"docs/{uri}")
    return out


def write() -> list[str]:
    """Write every page (each into a temporary file renamed over it); returns the pages that changed."""
    changed = stale()
    for uri, make in PAGES.items():
        path = os.path.join(ROOT, "docs", uri)
        tmp = path + ".tmp"
        with open(tmp, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(_page(make))
        os.replace(tmp, path)
    return changed


def on_pre_build(config) -> None:
    """The strict build fails on a committed page its sources no longer give."""
    import logging
    for page in stale():
        logging.getLogger("mkdocs.plugins.reference").warning(
            f"{page} is out of date with its sources: run `python docs/hooks/reference.py`")


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if "--check" in argv:
        pages = stale()
        for page in pages:
            print(f"{page}: out of date (run `python docs/hooks/reference.py`)")
        return 1 if pages else 0
    for page in write():
        print(f"{page}: regenerated")
    return 0


if __name__ == "__main__":
    sys.exit(main())
