"""Structural check of a loaded spec against schema/spec.schema.json.

Owns: running jsonschema over the plain data, and turning each error into a
diagnostic at the YAML position of the offending key or value, with a
did-you-mean among the keys allowed in that place. It does not look inside
rule text (syntax.py) or resolve names (checker.py).
"""
from __future__ import annotations

import functools
import json
import os
from typing import Any, Iterator

import jsonschema

from .diagnostics import Diagnostic, did_you_mean
from .document import json_type, value_at
from .loader import Document

SCHEMA = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "schema", "spec.schema.json")

_TYPE_WORDS = {"object": "a mapping", "array": "a list", "string": "text", "integer": "a whole number",
               "boolean": "true or false", "number": "a number", "null": "nothing"}


@functools.lru_cache(maxsize=1)
def validator() -> jsonschema.protocols.Validator:
    with open(SCHEMA, encoding="utf-8") as fh:
        schema = json.load(fh)
    # The shipped schema is checked against its meta-schema by the tests, not at every start (a third of a second).
    return jsonschema.validators.validator_for(schema)(schema)


def _resolve(schema: dict, root: dict) -> dict:
    while "$ref" in schema:
        ref = schema["$ref"]
        node: Any = root
        for part in ref.lstrip("#/").split("/"):
            node = node[part]
        schema = node
    return schema


def _words(types: Any) -> str:
    if isinstance(types, str):
        types = [types]
    return " or ".join(_TYPE_WORDS.get(t, t) for t in types)


def check(doc: Document) -> Iterator[Diagnostic]:
    """Yield one diagnostic per schema violation, best match first per place."""
    v = validator()
    seen: set[tuple] = set()
    for err in sorted(v.iter_errors(doc.data), key=lambda e: (list(map(str, e.absolute_path)), e.validator)):
        path = tuple(err.absolute_path)
        for d in _translate(doc, err, path):
            key = (d.span, d.message)
            if key not in seen:
                seen.add(key)
                yield d


def _translate(doc: Document, err: jsonschema.ValidationError, path: tuple) -> Iterator[Diagnostic]:
    where = ".".join(map(str, path)) or "the spec"
    kw = err.validator
    if kw == "additionalProperties":
        allowed = sorted(_resolve(err.schema, v_root()).get("properties", {}))
        extras = [k for k in err.instance if k not in allowed] if isinstance(err.instance, dict) else []
        for k in extras:
            hint = did_you_mean(str(k), allowed) or (f"allowed here: {', '.join(allowed)}" if allowed else None)
            yield Diagnostic("E201", f"unknown field '{k}' in {where}", doc.span(path + (k,), key=True), hint=hint)
        return
    if kw == "required":
        missing = err.message.split("'")[1] if "'" in err.message else err.message
        yield Diagnostic("E202", f"missing field '{missing}' in {where}", doc.span(path, key=True),
                         hint=f"add `{missing}:`")
        return
    if kw == "type":
        hint = None
        got = _words(_json_type(err.instance))
        if isinstance(err.instance, bool) and "string" in err.validator_value:
            hint = "YAML reads yes/no/on/off/true/false as true or false: put the text in quotes"
            word = _written(doc, doc.span(path))
            if word and word.lower() not in ("true", "false"):
                got = f"'{word}', which YAML reads as {str(err.instance).lower()}"
        yield Diagnostic("E203", f"{where} must be {_words(err.validator_value)}, not {got}", doc.span(path), hint=hint)
        return
    if kw == "enum":
        allowed = [str(x) for x in err.validator_value]
        hint = did_you_mean(str(err.instance), allowed) or f"one of: {', '.join(allowed)}"
        shown = _shown(err.instance)
        if isinstance(err.instance, bool):  # `[up, off]`: YAML read the word as false
            word = _written(doc, doc.span(path))
            shown = f"'{word}' (which YAML reads as {str(err.instance).lower()})" if word else shown
            hint = f"YAML reads yes/no/on/off as true or false: put the word in quotes; {hint}"
        yield Diagnostic("E204", f"{shown} is not allowed for {where}", doc.span(path), hint=hint)
        return
    if kw == "pattern":
        parent = value_at(doc.data, path[:-1]) if path else None
        is_value = isinstance(parent, (dict, list)) and path and value_at(doc.data, path) == err.instance
        holder = value_at(doc.data, path)
        if isinstance(holder, dict) and err.instance in holder:  # a key of this mapping
            span = doc.span(path + (err.instance,), key=True)
        else:
            span = doc.span(path, key=not is_value)
        yield Diagnostic("E205", f"'{err.instance}' is not a valid name", span,
                         hint="names use letters, digits and '_' and do not start with a digit")
        return
    if kw in ("minimum", "maximum", "minItems", "minProperties"):
        n = err.validator_value
        got = err.instance if kw in ("minimum", "maximum") else len(err.instance)
        words = {"minimum": f"must be at least {n}, not {got}", "maximum": f"must be at most {n}, not {got}",
                 "minItems": f"needs at least {n} item(s), not {got}",
                 "minProperties": f"needs at least {n} entries, not {got}"}[kw]
        yield Diagnostic("E206", f"{where} {words}", doc.span(path))
        return
    if kw == "propertyNames":
        bad = err.instance
        yield Diagnostic("E205", f"'{bad}' is not a valid name", doc.span(path + (bad,), key=True),
                         hint="names use letters, digits and '_' and do not start with a digit")
        return
    if kw in ("oneOf", "anyOf") and err.context:
        # One of several forms: say what is wrong with the form the value comes closest to (the deepest
        # complaint: `keys: [on, off]` is a list whose items YAML read as true/false, not a range).
        best = max(err.context, key=lambda e: (len(e.absolute_path), e.validator != "type"))
        yield from _translate(doc, best, tuple(best.absolute_path))
        return
    msg = err.message if len(err.message) <= 200 else err.message[:197] + "..."
    yield Diagnostic("E200", f"{where}: {msg}", doc.span(path))


def _written(doc: Document, span: Any) -> str | None:
    """The text a value was written as (`off`), from the source, when it is on one line."""
    if span is None or span.line != span.end_line:
        return None
    lines = (doc.sources.get(span.path) or "").split("\n")
    return lines[span.line - 1][span.col - 1:span.end_col - 1] if span.line <= len(lines) else None


def _shown(value: Any) -> str:
    """A value in a message: quoted if it is short text or a number, else what kind of value it is."""
    if isinstance(value, (dict, list)):
        return _words(_json_type(value)).capitalize()
    text = str(value)
    return f"'{text}'" if len(text) <= 60 else f"'{text[:57]}...'"


def v_root() -> dict:
    return validator().schema


def _json_type(x: Any) -> str:
    return json_type(x) or "null"  # a value JSON has no type for (a YAML date) is worded as null
