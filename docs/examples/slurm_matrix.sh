#!/bin/bash
# The matrix on a SLURM cluster: 4 nodes, 8 ranks per node, 4 case threads per rank
# (docs/cluster.md). Submit from the repository root: sbatch docs/examples/slurm_matrix.sh
#SBATCH --job-name=geomint-matrix
#SBATCH --nodes=4
#SBATCH --ntasks-per-node=8
#SBATCH --cpus-per-task=4
#SBATCH --time=01:00:00
#SBATCH --output=geomint-matrix-%j.log
set -euo pipefail

# --out must be on a file system every node sees: each rank writes the files of its cases.
out="${SCRATCH:-$PWD/out}/studies/matrix"

# One rank per task, each with its --cpus-per-task cores for its case threads; the
# Lennard-Jones kernels then run on one thread each (threads = cores / case threads).
# A rerun of this script after a failure or a time-out resumes: finished cases are kept.
srun --cpu-bind=cores build/release/cli/geomint matrix --out "$out" --jobs "${SLURM_CPUS_PER_TASK}"
build/release/cli/geomint report "$out" --out "${out%/matrix}/report"
