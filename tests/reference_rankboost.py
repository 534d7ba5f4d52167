"""Plain RankBoost (Freund et al. 2003, Fig. 1-2) on an explicit list of crucial pairs.

D is an array over the (bad, good) pairs of every query; each round tries every feature and
every threshold between consecutive distinct values of the documents that occur in a pair
(midpoints), computes
r = Σ_pairs D (h(g) − h(b)) by summing over the pairs, keeps the largest |r| (ties: lowest
feature, then highest threshold), sets α = ½ ln((1 + r)/(1 − r)) and
D ← D exp(α (h(b) − h(g))) / Z.
"""
import numpy as np


def pairs(y, query_ptr, threshold=1.0):
    out = []
    for q in range(len(query_ptr) - 1):
        idx = range(query_ptr[q], query_ptr[q + 1])
        goods = [i for i in idx if y[i] >= threshold]
        bads = [i for i in idx if y[i] < threshold]
        out += [(b, g) for g in goods for b in bads]
    return np.array(out)


def rankboost(X, y, query_ptr, rounds, threshold=1.0):
    P = pairs(y, query_ptr, threshold)
    D = np.full(len(P), 1.0 / len(P))
    in_pairs = np.unique(P)                 # the instances of the feedback (Freund et al.)
    model = []
    for _ in range(rounds):
        best = None
        for f in range(X.shape[1]):
            vals = np.unique(X[in_pairs, f])[::-1]               # descending
            for hi, lo in zip(vals[:-1], vals[1:]):
                theta = 0.5 * (hi + lo)
                h = X[:, f] > theta
                r = float(np.sum(D * (h[P[:, 1]].astype(float) - h[P[:, 0]])))
                if best is None or abs(r) > abs(best[0]):
                    best = (r, f, theta)
        r, f, theta = best
        a = 0.5 * np.log((1 + r) / (1 - r))
        h = (X[:, f] > theta).astype(float)
        D = D * np.exp(a * (h[P[:, 0]] - h[P[:, 1]]))
        D /= D.sum()
        model.append((f, theta, a))
    return model


def score(model, X):
    return sum(a * (X[:, f] > t) for f, t, a in model)
