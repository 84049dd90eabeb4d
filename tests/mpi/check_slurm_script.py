"""Label `mpi`: the SLURM script of docs/cluster.md parses.

Usage: check_slurm_script.py SCRIPT PATH_TO_GEOMINT. bash -n on the script; its #SBATCH lines
are options sbatch has, written --name=value; and the geomint command lines it runs name a
subcommand and only options that its --help lists."""
import re
import shlex
import subprocess
import sys

SBATCH_OPTIONS = {"job-name", "nodes", "ntasks", "ntasks-per-node", "cpus-per-task", "time",
                  "output", "error", "partition", "account", "mem", "mem-per-cpu", "exclusive"}


def main(script: str, geomint: str) -> int:
    problems = []
    r = subprocess.run(["bash", "-n", script], capture_output=True, text=True)
    if r.returncode != 0:
        problems.append("bash -n: " + r.stderr.strip())
    with open(script) as f:
        lines = f.read().splitlines()
    if not lines or not lines[0].startswith("#!"):
        problems.append("no #! line")
    directives = [line for line in lines if line.startswith("#SBATCH")]
    if not directives:
        problems.append("no #SBATCH line")
    for line in directives:
        m = re.fullmatch(r"#SBATCH --([a-z-]+)(=\S+)?", line)
        if not m or m.group(1) not in SBATCH_OPTIONS:
            problems.append("not an sbatch option: " + line)
    commands = [line.strip() for line in lines if "build/release/cli/geomint" in line and not line.startswith("#")]
    if not commands:
        problems.append("it runs no geomint")
    for command in commands:
        words = shlex.split(command)
        words = words[words.index("build/release/cli/geomint") + 1:]
        r = subprocess.run([geomint, words[0], "--help"], capture_output=True, text=True)
        if r.returncode != 0:
            problems.append(f"geomint {words[0]}: not a subcommand")
            continue
        listed = set(re.findall(r"--[a-z][a-z-]*", r.stdout))
        for option in (w.split("=")[0] for w in words[1:] if w.startswith("--")):
            if option not in listed:
                problems.append(f"geomint {words[0]} has no option {option}")
    for p in problems:
        print(f"{script}: {p}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
