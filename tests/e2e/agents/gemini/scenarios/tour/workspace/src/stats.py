def mean(xs):
    return sum(xs) / len(xs)


def spread(xs):
    return max(xs) - min(xs)
