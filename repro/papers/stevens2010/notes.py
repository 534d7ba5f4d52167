"""stevens2010's notes for the report: sources, stand-ins, labels and the pseudo-code
corrections (declarations, as data; re-exported by the package)."""

NOTES = [
    "Published values are transcribed from the text version of the thesis "
    "(000_8dd6a39b95c30745.txt); 'line N' in a source is line N of that file.",
    "Figure 4: the RankSVM-Struct, ListNet, AdaRank-NDCG, AdaRank-MAP and RankBoost columns are "
    "LETOR's published baselines, copied by the thesis; they are shown as published and not rerun. "
    "RankSVM-Struct is given for MQ2007 only (printed N/A on the LETOR 3.0 rows). Figure 4's header "
    "is garbled in the text; the column order Layered, Flat, Margin, RankSVM-Struct, ListNet, "
    "AdaRank-NDCG, AdaRank-MAP, RankBoost is confirmed by Figure 5.",
    "Figure 5 (average ranks over the eight LETOR sets) is derived from Figure 4: all 21 printed "
    "ranks follow exactly from Figure 4 with 7 methods (RankSVM-Struct excluded), competition "
    "ranking of ties and rounding half to even.",
    "All PAMIR numbers (Figures 6-8, 10, 16) come from the author's own PAMIR runs, not from a "
    "publication; they are compared with a PAMIR run of ours, not shown as baselines.",
    "PAMIR's Corel feature sets were never public. Stand-in: MULAN Corel5k (5,000 images, 499 "
    "binary blob-cluster features, 374 keywords, official 4,500/500 split), whose features differ "
    "from PAMIR's; its numbers are labelled stand-in and are not comparable with the thesis's. "
    "Corel-Large-All (35,379 images) has no stand-in.",
    "The Google image set (2.3M training and 400K test images, 41,000 queries) was never public. "
    "Figures 9-15 use Corel5k as a stand-in (keywords as queries), for the protocol only.",
    "Reuters-2000 with Singhal or bigram features needs the raw RCV1 text, which is not available. "
    "Stand-in for the Singhal rows and Figures 17-18: the MULAN RCV1-v2 subsets (5 x 6,000 "
    "documents, LYRL2004 tf-idf over 47,236 terms, 101 topics). The 4M-bigram rows of Figure 16 "
    "(dataset rcv1-singhal:bigrams) have no stand-in.",
    "Dataset labels: catalog ids of the thesis's data; 'corel-pamir:<subset>' for the Corel "
    "subsets, 'rcv1-singhal:bigrams' for Reuters-2000 with bigram features, 'LETOR-8' for the "
    "averages of Figure 5. Method labels: 'DR-<variant>' as printed in each figure (Feature "
    "Induction and Feature Selection are both Alg. 7), 'PAMIR-<iterations>'.",
]

NOTES += [
    "Pseudo-code corrections (README errata, each checked against a plain-NumPy reference that "
    "recomputes the loss pair by pair, its gradient and every single-coordinate update; "
    "tests/test_domination.py): m_q counts the dominating instances; μ sums over all lower "
    "layers; Z_k = Z_{k−1} + |G(k−1)| at w = 0; the margins of positives are updated too; the "
    "third ℓ1 case is δ = −(g_r − λ)/β; with M_i = w·x_i − s(i) a positive i must beat a "
    "negative j by s(i) − s(j) (Alg. 5's 'margin_i = s(i)' is −s(i)). Beyond the errata: the "
    "μ-term of the gradient, −μ_k/(Z_k + e^{M_i}), runs over every dominating instance, not only "
    "those with x_ir ≠ 0 as Alg. 2 and 4 print; a step therefore costs O(nnz_r + m) (m "
    "dominating instances), a sweep O(nnz + d·m): linear in the instances, not in the pairs.",
    "Numerics: no Z is formed; the kernel keeps per (group, layer) block a shift c_b (Alg. 6's "
    "max-shift, per block) and computes σ_i = Z_k/(Z_k + e^{M_i}) and ν = μ/Z as bounded "
    "ratios, so margins of ±10⁵ or s = 200·r_i neither overflow nor underflow to 0/0; a block "
    "is recomputed when the rounding bound of its cached sum exceeds 1e−10 of it "
    "(cancellation), so cached and fresh values agree to 1e−10.",
    "Stopping (§7.1, threshold ours): sweeps stop when one sweep's decrease of the regularised "
    "objective is at most tol = 1e−4 times the first sweep's; feature induction (Alg. 7) adds, "
    "per round, the α unchosen features with the largest bound (9) whose step is non-zero, "
    "sweeps the chosen ones by the same rule, and ends when no unchosen feature's bound exceeds "
    "tol times the first sweep's decrease. 'Iterations' are single-coordinate updates.",
]
