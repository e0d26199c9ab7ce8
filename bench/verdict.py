"""The verdict line every bench script prints, as bench/compare.sh does:

    NAME: deck X UNIT vs ref Y UNIT = ratio R (goal ≤ G) PASS|FAIL
"""


def verdict(name, deck, ref, unit, goal=1.0, digits=0):
    """Print the verdict of `deck` against `ref` (lower is better)."""
    ratio = deck / ref
    ok = "PASS" if ratio <= goal else "FAIL"
    print(f"{name}: deck {deck:.{digits}f} {unit} vs ref {ref:.{digits}f} {unit} = ratio {ratio:.2f} "
          f"(goal ≤ {goal}) {ok}", flush=True)
