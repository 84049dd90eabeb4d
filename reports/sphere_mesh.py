"""The unit sphere as a subdivided icosahedron, and per-face averages of per-molecule values.

Used by the kinetic energy map (LLM Fig. 3.7): the sphere is discretised into 20 * 4**level
triangles (5120 at level 4), and each face is coloured by the mean of a value (a molecule's
kinetic energy) over the molecules lying in the face or in one of its neighbouring faces.
"""
from __future__ import annotations

import numpy as np

# The icosahedron's vertices, (0, +-1, +-phi) and its cyclic permutations, and its faces, as in
# models/sphere_lj.cpp (the same construction, so level 3 gives the lee2009 molecule sites).
_PHI = (1.0 + 5.0 ** 0.5) / 2.0
_VERTICES = [(-1, _PHI, 0), (1, _PHI, 0), (-1, -_PHI, 0), (1, -_PHI, 0),
             (0, -1, _PHI), (0, 1, _PHI), (0, -1, -_PHI), (0, 1, -_PHI),
             (_PHI, 0, -1), (_PHI, 0, 1), (-_PHI, 0, -1), (-_PHI, 0, 1)]
_FACES = [(0, 11, 5), (0, 5, 1), (0, 1, 7), (0, 7, 10), (0, 10, 11), (1, 5, 9), (5, 11, 4),
          (11, 10, 2), (10, 7, 6), (7, 1, 8), (3, 9, 4), (3, 4, 2), (3, 2, 6), (3, 6, 8),
          (3, 8, 9), (4, 9, 5), (2, 4, 11), (6, 2, 10), (8, 6, 7), (9, 8, 1)]


def icosphere(level: int) -> tuple[np.ndarray, np.ndarray]:
    """(vertices V x 3, faces F x 3): each face split into four at its edge midpoints, each
    midpoint projected onto the sphere, `level` times; faces counter-clockwise from outside."""
    vertices = [np.array(v, dtype=float) / np.linalg.norm(v) for v in _VERTICES]
    faces = list(_FACES)
    for _ in range(level):
        midpoints: dict[tuple[int, int], int] = {}

        def mid(a: int, b: int) -> int:
            key = (min(a, b), max(a, b))
            if key not in midpoints:
                m = vertices[a] + vertices[b]
                midpoints[key] = len(vertices)
                vertices.append(m / np.linalg.norm(m))
            return midpoints[key]

        finer = []
        for a, b, c in faces:
            ab, bc, ca = mid(a, b), mid(b, c), mid(c, a)
            finer += [(a, ab, ca), (b, bc, ab), (c, ca, bc), (ab, bc, ca)]
        faces = finer
    v = np.array(vertices)
    f = np.array(faces, dtype=int)
    inward = np.einsum("ij,ij->i", np.cross(v[f[:, 0]], v[f[:, 1]]), v[f[:, 2]]) < 0
    f[inward] = f[inward][:, [0, 2, 1]]
    return v, f


def containing_faces(vertices: np.ndarray, faces: np.ndarray, points: np.ndarray,
                     tol: float = 1e-12, chunk: int = 256) -> list[np.ndarray]:
    """For each point (rows of `points`, on the unit sphere), the faces whose spherical
    triangles contain it: those with det(a, b, p) >= -tol for each of their edges (a, b). A
    point inside a face lies in one, on an edge in two, on a vertex in all around it (the
    lee2009 molecules start on vertices of the level-4 mesh); tol absorbs the round-off of the
    determinants, ~1e-17, far below their size for a point off an edge, ~1e-4 or more."""
    a, b, c = (vertices[faces[:, k]] for k in range(3))
    normals = [np.cross(a, b), np.cross(b, c), np.cross(c, a)]  # F x 3 each
    found: list[np.ndarray] = []
    for start in range(0, len(points), chunk):
        inside = np.minimum.reduce([points[start:start + chunk] @ n.T for n in normals])
        for row in inside:
            hits = np.flatnonzero(row >= -tol)
            found.append(hits if len(hits) else np.array([np.argmax(row)]))
    return found


def vertex_neighbourhoods(faces: np.ndarray, vertex_count: int) -> list[np.ndarray]:
    """For each face, itself and every face sharing a vertex with it: 13 faces, or 12 for the
    faces at the 12 vertices of the icosahedron (5 faces meet there, 6 everywhere else)."""
    incident: list[list[int]] = [[] for _ in range(vertex_count)]
    for index, face in enumerate(faces):
        for v in face:
            incident[v].append(index)
    return [np.unique(np.concatenate([incident[v] for v in face])) for face in faces]


def neighbourhood_means(faces: np.ndarray, vertex_count: int,
                        faces_of_point: list[np.ndarray], values: np.ndarray) -> np.ndarray:
    """Per face, the mean of `values` over the points lying in the face or in a face sharing a
    vertex with it (its vertex_neighbourhoods), each point counted once; NaN where none does.

    A point lies in that neighbourhood exactly when it lies in a face around one of the face's
    three vertices, so the points-by-faces membership is built from points-by-vertices."""
    touches = np.zeros((len(faces_of_point), vertex_count), dtype=bool)
    for point, around in enumerate(faces_of_point):
        touches[point, faces[around].ravel()] = True
    member = touches[:, faces[:, 0]] | touches[:, faces[:, 1]] | touches[:, faces[:, 2]]
    counts = member.sum(axis=0)
    sums = np.asarray(values, dtype=float) @ member
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(counts > 0, sums / np.maximum(counts, 1), np.nan)
