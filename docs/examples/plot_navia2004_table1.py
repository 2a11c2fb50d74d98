"""
Navia-Vázquez et al. (2004), Table 1: LS, SVC and the unbiased SVC on scenarios A and B
=======================================================================================

A linear machine on one feature, +1 when x > Th. In both scenarios the hinge loss of the SVC pulls
the threshold Th = −b/w away from the Bayes threshold; the unbiased SVC (USVC) replaces the hinge by
the smooth step θ̃_s (eq. 6), which approaches the error count, and lands near it (Navia-Vázquez,
Pérez-Cruz, Artés-Rodríguez & Figueiras-Vidal 2004, §5, Table 1: 500 training and 500 test points,
C = 10, 100 trials).

Here 20 trials per scenario (the app's Table 1 button and ``svmviz study run navia2004_table1`` run
all 100); k_ε = 10⁻⁴ (not stated in the paper).
"""
from svmviz.figures.usvc import plot_table1
from svmviz.published import NAVIA2004_TABLE1
from svmviz.usvc import table1_study, table1_summary

for scenario in ("A", "B"):
    rows = table1_summary(table1_study(scenario, n_trials=20, n_train=500, n_test=500, C=10.0, seed=0))
    print(f"scenario {scenario}: test CE % (sd) and Th, paper vs svmviz (20 trials)")
    for row in rows:
        paper = NAVIA2004_TABLE1[scenario][row["method"]]
        (ce, ce_sd), (th, _) = paper["test_ce"], paper["threshold"]
        print(f"  {row['method']:10s} test CE  paper {ce:5.1f} ({ce_sd})   svmviz {row['test_ce_mean']:5.1f} "
              f"({row['test_ce_sd']:.1f})      Th  paper {th:.2f}   svmviz {row['threshold_mean']:.2f}")
    if scenario == "A":
        rows_a = rows

# %%
plot_table1(rows_a, "A").show()
