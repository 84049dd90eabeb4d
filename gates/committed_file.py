"""A gate's committed file (the perf baseline, the accuracy answers): reading it, which fails
closed, and writing it as a comment, then one line per entry, sorted, so that a diff of an
update shows what changed entry by entry."""

import json
import math
import os


class Unusable(Exception):
    """The committed file is missing, unreadable or malformed; the message is one line that
    names the file and what is wrong with it."""


def shown(path):
    """`path` as a gate names it: relative to the working directory when inside it."""
    relative = os.path.relpath(path)
    return path if relative.startswith(os.pardir) else relative


def read(path, key, check_entry):
    """The entries (name -> entry) under `key` of the committed file at `path`. `check_entry`
    returns None for a well-formed entry, else what is wrong with it. Raises Unusable."""
    name = shown(path)
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except FileNotFoundError:
        raise Unusable(f"{name}: missing") from None
    except OSError as e:
        raise Unusable(f"{name}: unreadable ({e.strerror})") from None
    except UnicodeDecodeError:
        raise Unusable(f"{name}: unreadable (not UTF-8 text)") from None
    try:
        content = json.loads(text)
    except json.JSONDecodeError as e:
        raise Unusable(f"{name}: malformed: not JSON ({e})") from None
    if not isinstance(content, dict) or not isinstance(content.get(key), dict):
        raise Unusable(f"{name}: malformed: no {json.dumps(key)} object")
    entries = content[key]
    if not entries:
        raise Unusable(f"{name}: malformed: {json.dumps(key)} is empty")
    for entry_name, entry in sorted(entries.items()):
        why = check_entry(entry) if isinstance(entry, dict) else "not an object"
        if why:
            raise Unusable(f"{name}: malformed: {json.dumps(entry_name)}: {why}")
    return entries


def is_number(x):
    """A finite JSON number (not a boolean, NaN or infinity)."""
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


def write(path, comment, key, entries):
    lines = [f"  {json.dumps(name)}: {json.dumps(entries[name], sort_keys=True)}"
             for name in sorted(entries)]
    with open(path, "w") as f:
        f.write("{\n" f" \"comment\": {json.dumps(comment)},\n" f" {json.dumps(key)}: {{\n"
                + ",\n".join(lines) + "\n }\n}\n")
