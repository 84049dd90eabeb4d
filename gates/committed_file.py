"""Writing a gate's committed file (the perf baseline, the accuracy answers): a comment, then one
line per entry, sorted, so that a diff of an update shows what changed entry by entry."""

import json


def write(path, comment, key, entries):
    lines = [f"  {json.dumps(name)}: {json.dumps(entries[name], sort_keys=True)}"
             for name in sorted(entries)]
    with open(path, "w") as f:
        f.write("{\n" f" \"comment\": {json.dumps(comment)},\n" f" {json.dumps(key)}: {{\n"
                + ",\n".join(lines) + "\n }\n}\n")
