"""Label `spec-corpus`: every malformed spec of tests/data/bad_specs/ is refused as it must be.

Usage: test_spec_corpus.py PATH_TO_GEOMINT SOURCE_DIR. For each spec of the corpus, `geomint
study SPEC --out TMP/out --quiet` must exit with status 2 (no signal, no internal error), print
exactly one line on stderr, with `SPEC:LINE:COLUMN: ` and the spec's expected message in it, and
leave TMP/out uncreated. A spec states what it expects in its first lines,

    # expect: <a part of the message>
    # at: <LINE>:<COLUMN>          (optional: the place the message must give)

or, if it cannot hold a comment (an empty file, bytes that are not UTF-8), in the same lines
of a sidecar file NNN-name.expect. Specs too large to commit (over the size or the node limit)
are written at test time. The corpus must hold at least 150 specs, and every key of
studies/README.md must appear in a spec of it and in an expected message.
"""
import concurrent.futures
import os
import re
import signal
import subprocess
import sys
import tempfile
import unittest

GEOMINT = ""
SOURCE = ""
MIN_CORPUS = 150


def corpus_dir() -> str:
    return os.path.join(SOURCE, "tests", "data", "bad_specs")


def expectation(path: str) -> dict:
    """The `expect` and `at` lines of a spec (or of its sidecar .expect file)."""
    sidecar = os.path.splitext(path)[0] + ".expect"
    source = sidecar if os.path.exists(sidecar) else path
    with open(source, "rb") as f:
        head = f.read(4096).split(b"\n")[:2]
    found = {}
    for line in head:
        m = re.match(rb"# (expect|at): (.*)$", line)
        if m:
            found[m.group(1).decode()] = m.group(2).decode("utf-8")
    return found


def generated_specs(directory: str) -> dict:
    """Malformed specs too large to commit: path -> expectation."""
    specs = {}
    large = os.path.join(directory, "large-over-the-size-limit.yaml")
    with open(large, "w") as f:  # a good start, then comments past 1 MiB
        f.write("name: large\ntitle: one byte over the limit\n")
        f.write(("# padding " + "x" * 69 + "\n") * (1024 * 1024 // 80 + 1))
    specs[large] = {"expect": "the file is larger than 1 MiB (1048576 bytes), the limit for a spec",
                    "at": "1:1"}
    nodes = os.path.join(directory, "nodes-over-the-node-limit.yaml")
    with open(nodes, "w") as f:  # 250000 list entries in 500 kB
        f.write("name: nodes\ntitle: too many nodes\nexperiments: [" + "0," * 250000 + "0]\n")
    specs[nodes] = {"expect": "more than 200000 YAML nodes, the limit for a spec"}
    experiments = os.path.join(directory, "experiments-over-the-limit.yaml")
    with open(experiments, "w") as f:  # 1001 experiments
        f.write("name: many\ntitle: too many experiments\nexperiments:\n")
        for i in range(1001):
            f.write(f"  - {{name: e{i}, model: spherical_pendulum, preset: swing, T: 1, "
                    "runs: [{integrators: rk4, h: 0.1}]}\n")
    specs[experiments] = {"expect": "experiments[1000]: more than 1000 experiments, the limit for a spec",
                          "at": "1004:5"}
    cases = os.path.join(directory, "cases-over-the-limit.yaml")
    with open(cases, "w") as f:  # every fixed-step method (about 20) at 6000 steps
        steps = ", ".join(str(0.1 - i * 1e-6) for i in range(6000))
        f.write("name: many\ntitle: too many cases\nexperiments:\n  - {name: e, model: spherical_pendulum,"
                f" preset: swing, T: 1, all_integrators: {{h: [{steps}], rtol: 1e-6}}}}\n")
    specs[cases] = {"expect": "more than 100000 cases, the limit for a spec"}
    return specs


def readme_keys() -> set:
    """Every key the YAML examples of studies/README.md show (comments left out)."""
    with open(os.path.join(SOURCE, "studies", "README.md")) as f:
        text = f.read()
    keys = set()
    for block in re.findall(r"```yaml\n(.*?)```", text, re.S):
        for line in block.splitlines():
            line = re.sub(r"(^|\s)#.*", "", line)
            keys.update(re.findall(r"([A-Za-z_][A-Za-z0-9_]*):(?=\s|$)", line))
    return keys


def refuse(spec: str, out: str) -> subprocess.CompletedProcess:
    args = [GEOMINT, "study", spec, "--out", out, "--quiet", "--jobs", "1"]
    try:
        return subprocess.run(args, capture_output=True, timeout=30)
    except subprocess.TimeoutExpired:  # accepted, and running its cases
        return subprocess.CompletedProcess(args, 0, b"", b"still running after 30 s: accepted\n")


class Corpus(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.specs = sorted(os.path.join(corpus_dir(), name) for name in os.listdir(corpus_dir())
                           if not name.endswith(".expect"))
        cls.expected = {spec: expectation(spec) for spec in cls.specs}

    def test_the_corpus_is_large_and_every_spec_states_its_message(self):
        self.assertGreaterEqual(len(self.specs), MIN_CORPUS)
        for spec, found in self.expected.items():
            self.assertIn("expect", found, spec)
            self.assertGreater(len(found["expect"]), 10, f"{spec}: say which key or value is wrong")
        for name in os.listdir(corpus_dir()):
            if name.endswith(".expect"):
                self.assertTrue(os.path.exists(os.path.join(corpus_dir(), name[:-7] + ".yaml")), name)

    def test_every_key_of_the_readme_has_a_malformed_spec(self):
        keys = readme_keys()
        self.assertGreater(len(keys), 50, keys)  # the parse of the README found its examples
        texts, messages = [], [found.get("expect", "") for found in self.expected.values()]
        for spec in self.specs:
            with open(spec, "rb") as f:
                texts.append(f.read().decode("utf-8", "replace"))
        for key in sorted(keys):
            with self.subTest(key=key):
                self.assertTrue(any(re.search(rf"(^|[\s{{,]){re.escape(key)}\s*:", t, re.M) for t in texts),
                                f"no spec of the corpus has the key '{key}'")
                self.assertTrue(any(re.search(rf"\b{re.escape(key)}\b", m) for m in messages),
                                f"no expected message names '{key}'")

    def test_every_malformed_spec_is_refused_with_one_line_at_its_place(self):
        with tempfile.TemporaryDirectory() as tmp:
            expected = dict(self.expected)
            expected.update(generated_specs(tmp))
            outs = {spec: os.path.join(tmp, f"out{i}") for i, spec in enumerate(sorted(expected))}
            with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
                results = dict(zip(outs, pool.map(lambda s: refuse(s, outs[s]), outs)))
            for spec, r in results.items():
                with self.subTest(spec=os.path.basename(spec)):
                    self.check(spec, expected[spec], r, outs[spec])

    def check(self, spec, found, r, out):
        stderr = r.stderr.decode("utf-8")  # the message is UTF-8, whatever the spec holds
        if r.returncode < 0:
            self.fail(f"killed by signal {signal.Signals(-r.returncode).name}")
        self.assertNotIn("Traceback", stderr)
        self.assertNotIn("internal error", stderr)
        self.assertEqual(r.returncode, 2, stderr)
        lines = stderr.splitlines()
        self.assertEqual(len(lines), 1, stderr)
        place = re.search(re.escape(spec) + r":(\d+):(\d+): ", lines[0])
        self.assertIsNotNone(place, f"no {spec}:LINE:COLUMN: in {lines[0]}")
        self.assertGreaterEqual(int(place.group(1)), 1)
        self.assertGreaterEqual(int(place.group(2)), 1)
        if "at" in found:
            self.assertEqual(f"{place.group(1)}:{place.group(2)}", found["at"], lines[0])
        self.assertIn(found.get("expect", "(no expectation)"), lines[0])
        self.assertFalse(os.path.exists(out), "the output directory was created")


if __name__ == "__main__":
    GEOMINT = sys.argv.pop(1)
    SOURCE = sys.argv.pop(1)
    unittest.main(verbosity=2)
