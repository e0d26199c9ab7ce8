"""Small statistics helpers."""


def mean(xs):
    return sum(xs) / len(xs)


def spread(xs):
    return max(xs) - min(xs)


def median(xs):
    ys = sorted(xs)
    mid = len(ys) // 2
    if len(ys) % 2:
        return ys[mid]
    return (ys[mid - 1] + ys[mid]) / 2


if __name__ == "__main__":
    print(mean([1, 2, 3]), spread([1, 5]), median([3, 1, 2]))
