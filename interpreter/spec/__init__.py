"""Stage 1, the spec as a document: YAML loading with a position for every key and value (loader),
diagnostics and their rendering (diagnostics), the JSON Schema check (schema), `extends:` variants
merged with positions kept in the file each text came from (variants), the cache folder (cache), and
the one bounded reader of every file a user points at, regular files only, inside the allowed folders (files).

Knows nothing of the rules language: rule text is still a string here. May import only the
standard library, yaml, jsonschema and its own modules.
"""
