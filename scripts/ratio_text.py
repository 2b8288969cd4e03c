"""A ratio printed beside the limit it is judged against, with as many digits as it takes for the
printed value to fall on the same side of the limit as the value itself: 1.318 against "<= 1.3"
prints 1.32, not 1.3, and 0.9004 against "<= 0.9" prints 0.9004, not 0.90 — a verdict is never
contradicted by the figure printed beside it."""


def decisive(value, limit, at_most, spec=".2f"):
    """`value` formatted by `spec` (".2f", ".2g", ...), with digits added while the printed value
    and `value` disagree about `value <= limit` (`at_most`) or `value >= limit`."""
    def met(v):
        return v <= limit if at_most else v >= limit

    kind, digits = spec[-1], int(spec[1:-1])
    text = format(value, spec)
    while met(float(text)) != met(value) and digits < 12:
        digits += 1
        text = format(value, f".{digits}{kind}")
    return text
